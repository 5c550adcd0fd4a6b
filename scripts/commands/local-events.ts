import { readFile } from 'node:fs/promises';
import { localData } from '../local/local-data.js';
import { noteChanges } from '../operations/events/change-notes.js';
import { eventFiles } from '../operations/events/event-files.js';
import { HttpEventPublisher } from '../operations/events/event-target.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';
import type { Destination } from '../operations/events/republish.js';

/**
 * What a command run beside local mode reads of its data folder (`DATA_DIR`): where to note
 * a change for its forwarder, and the secret its events are signed with.
 */

/**
 * {@link noteChanges} for a command run with table flags: only when they name local mode's data
 * (no `--table`, no `--endpoint` or one on this machine), in `DATA_DIR` as the command reads it.
 */
export async function noteLocalChanges(
  flags: { readonly table?: string; readonly endpoint?: string },
  references: readonly string[],
): Promise<void> {
  if (flags.table || (flags.endpoint && !isLoopbackUrl(flags.endpoint))) return;
  const data = localData(process.env.DATA_DIR);
  if (data.kind === 'memory') return;
  await noteChanges(eventFiles(data.dir), references);
}

/**
 * The secret the running (or last) local server signs with, read from its data folder, so a
 * consumer that verifies accepts what replay and redrive send as well; none without one.
 */
export async function localSigningSecret(): Promise<string | undefined> {
  const data = localData(process.env.DATA_DIR);
  if (data.kind === 'memory') return undefined;
  const text = await readFile(eventFiles(data.dir).signingSecret, 'utf8').catch(() => '');
  return text.trim() || undefined;
}

/** Where replay publishes with `--forward-to`: the stream consumer's path, ending in a POST. */
export async function forwardDestination(url: string): Promise<Destination> {
  const signingSecret = await localSigningSecret();
  return {
    publisher: new HttpEventPublisher({ url, ...(signingSecret && { signingSecret }) }),
    eventBusName: url,
  };
}
