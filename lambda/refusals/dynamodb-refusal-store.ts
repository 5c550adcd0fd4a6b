import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { StoreUnavailableError } from '../callback/errors.js';
import type { RefusalRecord, RefusalStore } from './refusal.js';
import { keepRefusalUpdate } from './refusal-item.js';

const secondsPerDay = 86_400;

/** Keeps refusals in the refusals table, one item per distinct body (see refusal-item.ts). */
export class DynamoDbRefusalStore implements RefusalStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly retentionDays: number,
  ) {}

  async keep(refusal: RefusalRecord): Promise<void> {
    try {
      await this.client.send(
        new UpdateItemCommand(
          keepRefusalUpdate(this.tableName, refusal, this.retentionDays * secondsPerDay),
        ),
      );
    } catch (error) {
      // Not kept means the refusal must not be answered: a 503 makes the gateway retry.
      throw new StoreUnavailableError({ cause: error });
    }
  }
}
