import {
  type AttributeValue,
  ConditionalCheckFailedException,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { type AttemptOptions, attempt } from '../budget/attempts.js';
import { type TimeBudget, unlimitedBudget } from '../budget/time-budget.js';
import { limitDefaults } from '../config/config.js';
import { isSettled, settlementAttributes } from '../settle/settlement.js';
import { keepConflictUpdate } from './conflict-update.js';
import { storeFailure } from './store-failure.js';
import { attributes } from './table-definition.js';
import { fieldsVersionAttribute, transactionItem } from './transaction-item.js';
import type { PutOutcome, TransactionRecord, TransactionStore } from './transaction-store.js';

/**
 * `reference` is a DynamoDB reserved word, hence the placeholder. The write succeeds only when no
 * item holds the key: the engine, not this process, decides who was first, so concurrent
 * deliveries on any number of functions record exactly one item.
 */
const putIfAbsentCondition = {
  ConditionExpression: 'attribute_not_exists(#reference)',
  ExpressionAttributeNames: { '#reference': attributes.reference },
} as const;

/** Per-attempt timeout and attempts of every call, as configured (`DYNAMODB_*`). */
export const defaultStoreAttempts: AttemptOptions = {
  attemptTimeoutMs: limitDefaults.dynamodb.timeoutMs,
  maxAttempts: limitDefaults.dynamodb.maxAttempts,
};

/**
 * Every call runs through {@link attempt}: retried while it may succeed and while the budget can
 * hold another whole attempt (the client itself makes one attempt per call).
 */
export class DynamoDbTransactionStore implements TransactionStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly attempts: AttemptOptions = defaultStoreAttempts,
  ) {}

  async putIfAbsent(
    record: TransactionRecord,
    budget: TimeBudget = unlimitedBudget(),
  ): Promise<PutOutcome> {
    try {
      // DynamoDB returns the stored item with the failure, saving a read on every duplicate.
      await this.putNew(transactionItem(record), budget, 'ALL_OLD');
      return { kind: 'created' };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw storeFailure(error);
      const item = error.Item?.fingerprint?.S ? error.Item : await this.storedItem(record, budget);
      const extra = item.extra?.S;
      const version = item[fieldsVersionAttribute]?.N;
      return {
        kind: 'exists',
        fingerprint: item.fingerprint?.S as string,
        ...(extra !== undefined ? { extra } : {}),
        ...(version !== undefined ? { fieldsVersion: Number(version) } : {}),
        // An operator's decision on this very content, read from the item already in hand.
        ...(isSettled(item, record.fingerprint) ? { settled: true } : {}),
      };
    }
  }

  async keepConflict(
    record: TransactionRecord,
    budget: TimeBudget = unlimitedBudget(),
    settled = false,
  ): Promise<void> {
    // One upsert per delivery: kept once, counted every time (see conflict-update.ts).
    const update = keepConflictUpdate(this.tableName, record, settled);
    try {
      await attempt(budget, this.attempts, (abortSignal) =>
        this.client.send(new UpdateItemCommand(update), { abortSignal }),
      );
    } catch (error) {
      throw storeFailure(error);
    }
  }

  /** Writes `item` only if no item holds its key (see {@link putIfAbsentCondition}). */
  private async putNew(
    Item: Record<string, AttributeValue>,
    budget: TimeBudget,
    ReturnValuesOnConditionCheckFailure?: 'ALL_OLD',
  ): Promise<void> {
    const input = { TableName: this.tableName, Item, ReturnValuesOnConditionCheckFailure };
    await attempt(budget, this.attempts, (abortSignal) =>
      this.client.send(new PutItemCommand({ ...input, ...putIfAbsentCondition }), { abortSignal }),
    );
  }

  /**
   * Engines that do not return the old item with a failed condition (dynalite) need one strongly
   * consistent read; the item cannot be missing, since items are never deleted by this receiver.
   */
  private async storedItem(
    record: TransactionRecord,
    budget: TimeBudget,
  ): Promise<Record<string, AttributeValue>> {
    try {
      const output = await attempt(budget, this.attempts, (abortSignal) =>
        this.client.send(
          new GetItemCommand({
            TableName: this.tableName,
            Key: { [attributes.reference]: { S: record.transaction.reference } },
            ConsistentRead: true,
            ProjectionExpression: `fingerprint, extra, ${fieldsVersionAttribute}, #settlements`,
            ExpressionAttributeNames: { '#settlements': settlementAttributes.settlements },
          }),
          { abortSignal },
        ),
      );
      if (output.Item?.fingerprint?.S === undefined) {
        throw new Error('conditional write failed but no item found');
      }
      return output.Item;
    } catch (error) {
      throw storeFailure(error);
    }
  }
}
