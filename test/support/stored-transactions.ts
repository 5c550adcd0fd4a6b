import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { type Item, transactionItem } from '../../lambda/storage/transaction-item.js';
import type { TransactionRecord } from '../../lambda/storage/transaction-store.js';
import { putBatch } from './put-batch.js';

/**
 * Transactions for the query tests: `count` of them spread evenly, newest first,
 * over `spanDays` before `end`, with seeded variety in currency, type, status and amount (some
 * with fractions and 20+ digits, so sums must be exact).
 */
export function syntheticRecords(options: {
  readonly count: number;
  readonly spanDays: number;
  readonly end: Date;
  readonly seed?: number;
  readonly usernames?: number;
}): TransactionRecord[] {
  const rng = xoroshiro128plus(options.seed ?? 42);
  const pick = (n: number) => uniformInt(rng, 0, n - 1);
  const stepMs = (options.spanDays * 86_400_000) / options.count;
  return Array.from({ length: options.count }, (_, i) => {
    const receivedAt = new Date(options.end.getTime() - 1 - Math.floor(i * stepMs)).toISOString();
    const amount =
      pick(10) === 0 ? `${pick(1e9)}${pick(1e9)}${pick(1e4)}.${pick(100)}` : String(pick(1e6));
    const transaction = {
      id: String(1_000_000 + i),
      username: `user-${pick(options.usernames ?? 500)}`,
      firstName: 'Ada',
      lastName: 'Lovelace',
      amount,
      currency: ['EUR', 'TRY', 'USD'][pick(3)] as string,
      type: pick(2) === 0 ? ('Deposit' as const) : ('Withdrawal' as const),
      status: pick(4) === 0 ? ('Reject' as const) : ('Confirm' as const),
      reference: `bench-${options.seed ?? 42}-${i}`,
      extra: {},
    };
    return {
      transaction,
      fingerprint: 'f'.repeat(64),
      rawBody: JSON.stringify({ ...transaction, extra: undefined, message: '' }).padEnd(700),
      receivedAt,
      hashResult: 'verified' as const,
      keyId: 'k1',
      requestId: `req-${i}`,
      sourceIp: '203.0.113.7',
    };
  });
}

/** Writes items 25 to a request, several requests at once, retrying what the engine left. */
async function storeItems(
  client: DynamoDBClient,
  tableName: string,
  items: readonly Item[],
  concurrency = 8,
): Promise<void> {
  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      await putBatch(client, tableName, batches[next++] as Item[]);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export function storeTransactions(
  client: DynamoDBClient,
  tableName: string,
  records: readonly TransactionRecord[],
): Promise<void> {
  return storeItems(client, tableName, records.map(transactionItem));
}
