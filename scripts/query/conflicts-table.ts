import { textTable } from '../shared/text-table.js';
import { displayValue, type StoredItem } from './stored-item.js';

/**
 * Conflicting deliveries under the transaction they contradict: when each came and what it
 * claimed. Their fields are nested under `transaction` (see lambda/storage/transaction-item.ts).
 */
export function conflictsTable(conflicts: readonly StoredItem[]): string {
  if (conflicts.length === 0) return '\nNo conflicting deliveries.\n';
  const rows = conflicts.map((item) => {
    const claimed = (item.transaction ?? {}) as StoredItem;
    return [
      displayValue(item.receivedAt),
      displayValue(claimed.type),
      displayValue(claimed.status),
      displayValue(claimed.amount),
      displayValue(claimed.currency),
      displayValue(claimed.message),
      displayValue(item.requestId),
    ];
  });
  const count = conflicts.length;
  return (
    `\n${count} conflicting deliver${count === 1 ? 'y' : 'ies'} kept for audit (refused with 409):\n` +
    textTable(['receivedAt', 'type', 'status', 'amount', 'cur', 'message', 'request'], rows)
  );
}
