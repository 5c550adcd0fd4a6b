import { exactJson } from '../../cli/output/exact-json.js';
import type { SettleResult } from './settle.js';

/** What a recorded decision did, in the words `npm run settle` and the console both use. */
export function settleOutcomeText(result: SettleResult): string {
  const what =
    result.accepted === 'received'
      ? `corrected: the received content is version ${result.version}, the previous kept in its history`
      : `closed: the stored transaction (version ${result.version}) stands`;
  return `Settled conflict ${result.conflict.id} of ${exactJson(result.reference)}: ${what}.`;
}
