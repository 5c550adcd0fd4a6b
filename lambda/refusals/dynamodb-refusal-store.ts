import { type DynamoDBClient, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { type AttemptOptions, attempt } from '../budget/attempts.js';
import { type TimeBudget, unlimitedBudget } from '../budget/time-budget.js';
import { StoreUnavailableError } from '../callback/errors.js';
import { defaultStoreAttempts } from '../storage/dynamodb-transaction-store.js';
import type { RefusalRecord, RefusalStore } from './refusal.js';
import { keepRefusalUpdate } from './refusal-item.js';
import { defaultRefusalRetentionDays } from './refusals-table.js';

const secondsPerDay = 86_400;

export interface RefusalStoreOptions {
  /** @default 90 */
  readonly retentionDays?: number;
  /** Per-attempt timeout and attempts, as for transactions. */
  readonly attempts?: AttemptOptions;
}

/** Keeps refusals in the refusals table, one item per distinct body (see refusal-item.ts). */
export class DynamoDbRefusalStore implements RefusalStore {
  private readonly retentionSeconds: number;
  private readonly attempts: AttemptOptions;

  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    options: RefusalStoreOptions = {},
  ) {
    this.retentionSeconds = (options.retentionDays ?? defaultRefusalRetentionDays) * secondsPerDay;
    this.attempts = options.attempts ?? defaultStoreAttempts;
  }

  async keep(refusal: RefusalRecord, budget: TimeBudget = unlimitedBudget()): Promise<void> {
    const update = keepRefusalUpdate(this.tableName, refusal, this.retentionSeconds);
    try {
      await attempt(budget, this.attempts, (abortSignal) =>
        this.client.send(new UpdateItemCommand(update), { abortSignal }),
      );
    } catch (error) {
      // Not kept means the refusal must not be answered: a 503 makes the gateway retry. Even a
      // ValidationException: the item is bounded well under 400 KB, so it means an outage here.
      throw new StoreUnavailableError({ cause: error });
    }
  }
}
