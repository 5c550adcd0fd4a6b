import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';

/** Where the baseline's handler writes the transaction once Idempotency has let it through. */
export interface TransactionWriter {
  put(item: Record<string, unknown>): Promise<void>;
}

/**
 * A plain `PutCommand` through the Document client: no condition, since the Idempotency layer is
 * trusted to keep a second delivery from reaching the handler.
 */
export function dynamoDbTransactionWriter(
  client: DynamoDBClient,
  tableName: string,
): TransactionWriter {
  const documents = DynamoDBDocumentClient.from(client);
  return {
    async put(item) {
      await documents.send(new PutCommand({ TableName: tableName, Item: item }));
    },
  };
}

/** The in-memory stand-in for CPU measurements, like ours `MemoryTransactionStore`. */
export function memoryTransactionWriter(): TransactionWriter & {
  readonly items: Map<unknown, Record<string, unknown>>;
} {
  const items = new Map<unknown, Record<string, unknown>>();
  return {
    items,
    async put(item) {
      items.set(item.reference, item);
    },
  };
}
