import { attributeText, type Item } from './item-json.js';

/**
 * Conflicting deliveries under the transaction they contradict: when each came and what it
 * claimed. Their fields are nested under `transaction` (see lambda/storage/transaction-item.ts).
 */
export function conflictsTable(conflicts: readonly Item[]): string {
  if (conflicts.length === 0) return '\nNo conflicting deliveries.\n';
  const lines = conflicts.map((item) => {
    const claimed = item.transaction?.M ?? {};
    const field = (name: string) => attributeText(claimed[name]);
    return (
      `  ${attributeText(item.receivedAt)}  ${field('type')} ${field('status')} ` +
      `${field('amount')} ${field('currency')}  message ${JSON.stringify(field('message'))}  ` +
      `request ${attributeText(item.requestId)}`
    );
  });
  const count = conflicts.length;
  return `\n${count} conflicting deliver${count === 1 ? 'y' : 'ies'} kept for audit (refused with 409):\n${lines.join('\n')}\n`;
}
