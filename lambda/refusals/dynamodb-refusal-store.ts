import {
  type DynamoDBClient,
  UpdateItemCommand,
  type UpdateItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { type AttemptOptions, attempt } from '../budget/attempts.js';
import { type TimeBudget, unlimitedBudget } from '../budget/time-budget.js';
import { StoreUnavailableError } from '../callback/errors.js';
import { defaultStoreAttempts } from '../storage/dynamodb-transaction-store.js';
import { claimSlotUpdate } from './minute-bound.js';
import type { KeepOutcome, RefusalRecord, RefusalStore } from './refusal.js';
import { countDeliveryUpdate, keepRefusalUpdate } from './refusal-item.js';
import { defaultRefusalsKeptPerMinute } from './refusal-limits.js';
import { defaultRefusalRetentionDays } from './refusals-table.js';

const secondsPerDay = 86_400;

export interface RefusalStoreOptions {
  /** @default 90 */
  readonly retentionDays?: number;
  /** New bodies kept per minute across all instances. @default 120 */
  readonly keptPerMinute?: number;
  /** Per-attempt timeout and attempts, as for transactions. */
  readonly attempts?: AttemptOptions;
}

/**
 * Keeps refusals in the refusals table, one item per distinct body (see refusal-item.ts), at
 * most `keptPerMinute` new ones a minute (minute-bound.ts). A repeat costs one write; a new body
 * three (the repeat's condition fails, a slot is claimed, the body kept), and new bodies are
 * the bounded kind. Every call runs inside the request's time budget.
 */
export class DynamoDbRefusalStore implements RefusalStore {
  private readonly retentionSeconds: number;
  private readonly keptPerMinute: number;
  private readonly attempts: AttemptOptions;

  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    options: RefusalStoreOptions = {},
  ) {
    this.retentionSeconds = (options.retentionDays ?? defaultRefusalRetentionDays) * secondsPerDay;
    this.keptPerMinute = options.keptPerMinute ?? defaultRefusalsKeptPerMinute;
    this.attempts = options.attempts ?? defaultStoreAttempts;
  }

  async keep(refusal: RefusalRecord, budget: TimeBudget = unlimitedBudget()): Promise<KeepOutcome> {
    try {
      const repeat = countDeliveryUpdate(this.tableName, refusal, this.retentionSeconds);
      if (await this.update(repeat, budget)) return 'counted';
      const slot = claimSlotUpdate(this.tableName, refusal.receivedAt, this.keptPerMinute);
      if (!(await this.update(slot, budget))) return 'not-kept';
      await this.update(keepRefusalUpdate(this.tableName, refusal, this.retentionSeconds), budget);
      return 'kept';
    } catch (error) {
      // Not kept, or not known whether it may be: the refusal must not be answered, and a 503
      // makes the gateway retry, as when the table cannot be reached at all. Even a
      // ValidationException: the item is bounded well under 400 KB, so it means an outage here.
      throw new StoreUnavailableError({ cause: error });
    }
  }

  /** Sends the update; false when its condition failed (that is an answer, not a fault). */
  private async update(input: UpdateItemCommandInput, budget: TimeBudget): Promise<boolean> {
    try {
      await attempt(budget, this.attempts, (abortSignal) =>
        this.client.send(new UpdateItemCommand(input), { abortSignal }),
      );
      return true;
    } catch (error) {
      if ((error as Error).name === 'ConditionalCheckFailedException') return false;
      throw error;
    }
  }
}
