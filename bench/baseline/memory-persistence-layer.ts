import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
} from '@aws-lambda-powertools/idempotency';
import {
  BasePersistenceLayer,
  IdempotencyRecord,
} from '@aws-lambda-powertools/idempotency/persistence';

/**
 * Powertools' persistence layer with the network out, for the CPU measurement: the base class
 * (JMESPath, hashing, record building, validation) runs as in Lambda, only the four storage calls
 * are a `Map`. The put keeps the DynamoDB layer's condition (absent, expired, or an expired
 * IN_PROGRESS lock) and hands the existing record back, as DynamoDB does with ALL_OLD. Not
 * Powertools' CachePersistenceLayer on a `Map`: in 2.35 its update drops the payload hash, so
 * every duplicate would be refused 409.
 */
export class MemoryPersistenceLayer extends BasePersistenceLayer {
  readonly records = new Map<string, IdempotencyRecord>();

  protected async _putRecord(record: IdempotencyRecord): Promise<void> {
    const existing = this.records.get(record.idempotencyKey);
    const now = Date.now();
    const free =
      existing === undefined ||
      (existing.expiryTimestamp ?? 0) < now / 1000 ||
      (existing.getStatus() === IdempotencyRecordStatus.INPROGRESS &&
        (existing.inProgressExpiryTimestamp ?? now) < now);
    if (!free) {
      throw new IdempotencyItemAlreadyExistsError(
        `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
        copy(existing),
      );
    }
    this.records.set(record.idempotencyKey, copy(record));
  }

  protected async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const record = this.records.get(idempotencyKey);
    if (!record) throw new IdempotencyItemNotFoundError();
    return copy(record);
  }

  protected async _updateRecord(record: IdempotencyRecord): Promise<void> {
    this.records.set(record.idempotencyKey, copy(record));
  }

  protected async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    this.records.delete(record.idempotencyKey);
  }
}

/** Stored apart from the caller's object, as a round trip through DynamoDB would leave it. */
function copy(record: IdempotencyRecord): IdempotencyRecord {
  return new IdempotencyRecord({
    idempotencyKey: record.idempotencyKey,
    status: record.getStatus(),
    expiryTimestamp: record.expiryTimestamp,
    inProgressExpiryTimestamp: record.inProgressExpiryTimestamp,
    responseData: record.responseData,
    payloadHash: record.payloadHash,
  });
}
