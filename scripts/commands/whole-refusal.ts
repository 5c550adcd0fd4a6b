import { UsageError } from '../cli/cli-errors.js';
import { findRefusal } from '../table/kept-refusals.js';
import type { KeptRefusal } from '../table/refusal-item.js';
import { type KnownLock, type TargetFlags, withTarget } from './table-target.js';

/**
 * The kept refusal `digest` names, with its whole body: verify and resubmit need every byte, so
 * a body kept only in part (it was over the size limit) is an error that says `why` it matters.
 */
export async function wholeRefusal(
  flags: TargetFlags,
  digest: string,
  why: string,
  known?: KnownLock,
): Promise<KeptRefusal> {
  const refusal = await withTarget(
    flags,
    async (target) => {
      const found = await findRefusal(target, digest);
      if (!found) throw new UsageError(`no kept refusal ${digest} in ${target.description}`);
      return found;
    },
    'refusals',
    known,
  );
  if (refusal.bodyKept === 'part') {
    const kept = `${refusal.body.length} of ${refusal.bodyBytes} bytes`;
    throw new UsageError(`only the first ${kept} of that body were kept: ${why}`);
  }
  return refusal;
}
