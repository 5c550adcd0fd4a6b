import {
  ConditionalCheckFailedException,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import { storeFailure } from './store-failure.js';
import { attributes } from './table-definition.js';
import { conflictItem, transactionItem } from './transaction-item.js';
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

export class DynamoDbTransactionStore implements TransactionStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
  ) {}

  async putIfAbsent(record: TransactionRecord): Promise<PutOutcome> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: transactionItem(record),
          ...putIfAbsentCondition,
          // DynamoDB returns the stored item with the failure, saving a read on every duplicate.
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { kind: 'created' };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw storeFailure(error);
      const stored = error.Item?.fingerprint?.S ?? (await this.storedFingerprint(record));
      return { kind: 'exists', fingerprint: stored };
    }
  }

  async keepConflict(record: TransactionRecord): Promise<void> {
    try {
      await this.client.send(
        new PutItemCommand({
          TableName: this.tableName,
          Item: conflictItem(record),
          ...putIfAbsentCondition,
        }),
      );
    } catch (error) {
      // The same conflicting content is already kept: nothing to add.
      if (error instanceof ConditionalCheckFailedException) return;
      throw storeFailure(error);
    }
  }

  /**
   * Engines that do not return the old item with a failed condition (dynalite) need one strongly
   * consistent read; the item cannot be missing, since items are never deleted by this receiver.
   */
  private async storedFingerprint(record: TransactionRecord): Promise<string> {
    try {
      const output = await this.client.send(
        new GetItemCommand({
          TableName: this.tableName,
          Key: { [attributes.reference]: { S: record.transaction.reference } },
          ConsistentRead: true,
          ProjectionExpression: 'fingerprint',
        }),
      );
      const fingerprint = output.Item?.fingerprint?.S;
      if (fingerprint === undefined) throw new Error('conditional write failed but no item found');
      return fingerprint;
    } catch (error) {
      throw storeFailure(error);
    }
  }
}
