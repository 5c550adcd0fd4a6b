/**
 * The tables bench/console/list-pages.ts pages through: `count` transactions of the bench's day
 * (bench/tools/scale-data.ts), one in a hundred with a conflicting delivery kept and one in a
 * hundred of one user's (written in mixed case, so the by-user list folds it as the console
 * does), and a refusals table with one kept refusal per hundred transactions. Seeded once into a
 * LevelDB folder when one is given, and found there the next time.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { conflictItem, type Item, transactionItem } from '../../lambda/storage/transaction-item.js';
import { ensureTable } from '../../scripts/local/engine/local-engine.js';
import { putBatch } from '../../test/support/put-batch.js';
import { seedRefusals } from '../refusals/seed-refusals.js';
import { benchRecord } from '../tools/scale-data.js';

/** Every this many transactions, one carries a conflict, one is the busy user's, one refusal. */
export const share = 100;

/** The user the by-user list reads: a hundredth of the table, whatever its size. */
export const busyUser = 'Busy-User';

/** Bytes of each kept refusal's body: the list never reads bodies, so small ones seed quicker. */
const refusalBodyBytes = 512;

export interface ListTables {
  readonly count: number;
  readonly tableName: string;
  readonly refusalsTableName: string;
  readonly conflicts: number;
  readonly refusals: number;
  /** Seconds seeding took (this run, or the run that seeded the folder). */
  readonly seededSeconds: number;
  /** True when the tables were found in the folder, seeded by an earlier run. */
  readonly reused: boolean;
}

/** Transaction `i` of `count` and, for one in {@link share}, its conflicting delivery. */
function* itemsOf(i: number, count: number): Generator<Item> {
  const record = benchRecord(i, count);
  const transaction =
    i % share === 1 ? { ...record.transaction, username: busyUser } : record.transaction;
  yield transactionItem({ ...record, transaction });
  if (i % share !== 0) return;
  yield conflictItem({
    ...record,
    transaction: { ...transaction, amount: String(Number(transaction.amount) + 1) },
    fingerprint: i.toString(16).padStart(64, '0'),
  });
}

/**
 * Writes `count` transactions (generated as written: memory stays flat), 25 items a request,
 * `concurrency` requests at once, telling `progress` every `every` transactions.
 */
async function seedItems(
  client: DynamoDBClient,
  tableName: string,
  count: number,
  progress: (written: number) => void,
  concurrency = 8,
  every = 50_000,
): Promise<void> {
  let next = 0;
  let written = 0;
  const worker = async () => {
    while (next < count) {
      const batch: Item[] = [];
      // Up to 25 items: a transaction and its conflict are never split, so this stays under.
      while (next < count && batch.length < 24) batch.push(...itemsOf(next++, count));
      await putBatch(client, tableName, batch);
      const before = written;
      written += batch.length;
      if (Math.floor(before / every) !== Math.floor(written / every)) progress(next);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * The two tables for `count` transactions: seeded now, or (with `folder`, the engine's LevelDB
 * folder) found there when an earlier run finished seeding them.
 */
export async function listTables(
  client: DynamoDBClient,
  count: number,
  folder: string | undefined,
  log: (message: string) => void,
): Promise<ListTables> {
  const tables = {
    count,
    tableName: `bench-lists-${count}`,
    refusalsTableName: `bench-lists-refusals-${count}`,
    conflicts: Math.ceil(count / share),
    refusals: Math.ceil(count / share),
  };
  const marker = folder && join(folder, `${tables.tableName}.seeded.json`);
  // Found or not, the tables are brought to the definitions this code reads them with.
  await ensureTable(client, tables.tableName, { create: true });
  await ensureTable(client, tables.refusalsTableName, { create: true, table: 'refusals' });
  if (marker && existsSync(marker)) {
    const { seededSeconds } = JSON.parse(await readFile(marker, 'utf8')) as ListTables;
    log(`${count} transactions: found in ${folder} (seeded in ${seededSeconds.toFixed(0)} s)`);
    return { ...tables, seededSeconds, reused: true };
  }
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  log(
    `${count} transactions: seeding (${tables.conflicts} conflicts, ${tables.refusals} refusals)`,
  );
  await seedItems(client, tables.tableName, count, (done) =>
    log(`${count} transactions: ${done} written, ${elapsed()}`),
  );
  await seedRefusals(
    client,
    tables.refusalsTableName,
    tables.refusals,
    (done) => log(`${count} transactions: ${done} refusals kept, ${elapsed()}`),
    refusalBodyBytes,
  );
  const seededSeconds = (performance.now() - started) / 1000;
  log(`${count} transactions: seeded in ${elapsed()}`);
  const result = { ...tables, seededSeconds, reused: false };
  if (marker) await writeFile(marker, `${JSON.stringify(result)}\n`);
  return result;
}
