import { fieldsVersion, transactionFields } from '../../lambda/callback/transaction-fields.js';
import { stringifyJson } from '../../lambda/json/json-text.js';
import type {
  PutOutcome,
  TransactionRecord,
  TransactionStore,
} from '../../lambda/storage/transaction-store.js';

/** For unit tests and the handler's CPU benchmark: nothing is durable. */
export class MemoryTransactionStore implements TransactionStore {
  readonly records = new Map<string, TransactionRecord>();
  readonly conflicts = new Map<string, TransactionRecord>();

  async putIfAbsent(record: TransactionRecord): Promise<PutOutcome> {
    const stored = this.records.get(record.transaction.reference);
    if (stored) {
      const { extra } = stored.transaction;
      const version = fieldsVersion(stored.fields ?? transactionFields);
      return {
        kind: 'exists',
        fingerprint: stored.fingerprint,
        ...(Object.keys(extra).length > 0 ? { extra: stringifyJson(extra) } : {}),
        ...(version > 1 ? { fieldsVersion: version } : {}),
      };
    }
    this.records.set(record.transaction.reference, record);
    return { kind: 'created' };
  }

  async keepConflict(record: TransactionRecord): Promise<void> {
    const key = `${record.transaction.reference}/${record.fingerprint}`;
    if (!this.conflicts.has(key)) this.conflicts.set(key, record);
  }
}
