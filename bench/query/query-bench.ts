/**
 * `npm run bench:query`: the time index before and after, in one run on one engine.
 *
 * - write units per callback for a 1 KB and a 4 KB body, computed from the item sizes and, where
 *   the engine reports them, as DynamoDB Local's ConsumedCapacity;
 * - queries and wall time to read 1-, 30- and 365-day windows over `--count` transactions
 *   (default 100,000, spread over two years), old design against new;
 * - peak RSS of `npm run query -- export` for a small window and for every transaction.
 *
 * Prints the tables; writes them to a file only with `--write <file>`.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import {
  CreateTableCommand,
  type DynamoDBClient,
  PutItemCommand,
  type PutItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { Command, Option } from 'commander';
import { transactionsTable } from '../../lambda/storage/table-definition.js';
import { transactionItem } from '../../lambda/storage/transaction-item.js';
import { timeWindow } from '../../scripts/query/time-window.js';
import { listByTime } from '../../scripts/query/transaction-queries.js';
import { createTableInput } from '../../scripts/shared/create-table-input.js';
import { textTable } from '../../scripts/shared/text-table.js';
import { type EngineName, engineClient, startEngine } from '../support/engines.js';
import { itemSize, writeUnits } from './item-size.js';
import { legacyItem, legacyListByTime, legacyTable } from './legacy-time-index.js';
import { storeItems, syntheticRecords } from './stored-transactions.js';

const options = new Command('npm run bench:query --')
  .option('--count <n>', 'transactions stored', (value) => Number.parseInt(value, 10), 100_000)
  .addOption(
    new Option('--engine <name>', 'the engine to measure on')
      .choices(['DynamoDB Local', 'dynalite'])
      .default('DynamoDB Local'),
  )
  .option('--write <file>', 'also write the results as Markdown to this file')
  .parse()
  .opts<{ count: number; engine: EngineName; write?: string }>();

const spanDays = 730;
const end = new Date('2026-11-20T00:00:00.000Z');
const out: string[] = [];
const print = (text: string) => {
  process.stdout.write(text);
  out.push(text);
};

const engine = await startEngine(options.engine);
const client = engineClient(engine.endpoint);
let queries = 0;
client.middlewareStack.add(
  (next, context) => async (args) => {
    if (context.commandName === 'QueryCommand') queries++;
    return next(args);
  },
  { step: 'initialize', name: 'countQueries' },
);

try {
  const tables = { old: 'bench-query-old', new: 'bench-query-new' };
  await client.send(new CreateTableCommand(createTableInput(tables.old, legacyTable)));
  await client.send(new CreateTableCommand(createTableInput(tables.new)));

  print(`# Query benchmark (${options.engine}, ${new Date().toISOString()})\n\n`);
  await writeUnitsSection(client, tables);

  const started = Date.now();
  const records = syntheticRecords({ count: options.count, spanDays, end, seed: 13 });
  const items = records.map(transactionItem);
  await storeItems(client, tables.new, items);
  await storeItems(client, tables.old, items.map(legacyItem));
  print(
    `Stored ${options.count.toLocaleString('en')} transactions over ${spanDays} days in each ` +
      `design (${((Date.now() - started) / 1000).toFixed(0)} s).\n\n`,
  );

  await windowsSection(client, tables);
  await exportSection(engine.endpoint, tables.new);
} finally {
  client.destroy();
  await engine.stop();
}
if (options.write) {
  await writeFile(options.write, out.join(''));
  process.stdout.write(`\nWritten to ${options.write}\n`);
}

async function writeUnitsSection(
  client: DynamoDBClient,
  tables: { readonly old: string; readonly new: string },
): Promise<void> {
  const rows: string[][] = [];
  for (const bodyBytes of [1024, 4096]) {
    const [record] = syntheticRecords({ count: 1, spanDays: 1, end, seed: bodyBytes });
    if (!record) throw new Error('no record');
    // The body grows by its message, as a long gateway message would; the item keeps both.
    const { extra: _, ...fields } = record.transaction;
    const bare = Buffer.byteLength(JSON.stringify({ ...fields, message: '' }));
    const message = 'm'.repeat(bodyBytes - bare);
    const transaction = { ...record.transaction, message };
    const sized = { ...record, transaction, rawBody: JSON.stringify({ ...fields, message }) };
    const item = transactionItem(sized);
    for (const [design, table, definition, designItem] of [
      ['before', tables.old, legacyTable, legacyItem(item)],
      ['after', tables.new, transactionsTable, item],
    ] as const) {
      const computed = writeUnits(designItem, definition);
      const measured = await client.send(
        new PutItemCommand({
          TableName: table,
          Item: designItem,
          ReturnConsumedCapacity: 'INDEXES',
        }),
      );
      rows.push([
        `${bodyBytes / 1024} KB`,
        design,
        String(Buffer.byteLength(sized.rawBody)),
        String(itemSize(designItem)),
        `${computed.table} + ${computed.indexes.join(' + ')} = ${computed.table + computed.indexes.reduce((a, b) => a + b, 0)}`,
        reported(measured),
      ]);
    }
  }
  print('## Write units per callback\n\n');
  print(
    textTable(
      [
        'body',
        'design',
        'body bytes',
        'item bytes',
        'WCU table + byUser + byTime + byConflictOf',
        'engine reports',
      ],
      rows,
    ),
  );
  print(
    '\nIndex entries count their keys, projected attributes and 100 bytes of overhead; a ' +
      'conflict audit item is written only for a conflicting delivery, so byConflictOf costs 0 here.\n\n',
  );
}

function reported(output: PutItemCommandOutput): string {
  const consumed = output.ConsumedCapacity;
  if (!consumed) return 'nothing';
  const indexes = Object.entries(consumed.GlobalSecondaryIndexes ?? {})
    .map(([name, capacity]) => `${name} ${capacity.CapacityUnits ?? '?'}`)
    .join(', ');
  return `total ${consumed.CapacityUnits ?? '?'}${indexes ? ` (${indexes})` : ' (no per-index figures)'}`;
}

async function windowsSection(
  client: DynamoDBClient,
  tables: { readonly old: string; readonly new: string },
): Promise<void> {
  const rows: string[][] = [];
  for (const days of [1, 30, 365]) {
    const since = new Date(end.getTime() - days * 86_400_000).toISOString();
    const window = timeWindow(since, end.toISOString());
    const before = await measure(() => legacyListByTime(client, tables.old, window));
    const after = await measure(() => listByTime({ client, tableName: tables.new }, window, {}));
    if (before.items !== after.items) {
      throw new Error(`${days} days: old design read ${before.items}, new ${after.items}`);
    }
    rows.push([
      `${days} day${days === 1 ? '' : 's'}`,
      after.items.toLocaleString('en'),
      before.queries.toLocaleString('en'),
      after.queries.toLocaleString('en'),
      `${before.ms.toFixed(0)} ms`,
      `${after.ms.toFixed(0)} ms`,
      `${(before.ms / after.ms).toFixed(1)}x`,
    ]);
  }
  print('## Reading a window (every transaction in it, newest first)\n\n');
  print(
    textTable(
      [
        'window',
        'transactions',
        'queries before',
        'queries after',
        'wall before',
        'wall after',
        'speed-up',
      ],
      rows,
      { alignRight: [1, 2, 3, 4, 5, 6] },
    ),
  );
  print('\n');
}

async function measure(
  read: () => AsyncIterable<unknown>,
): Promise<{ items: number; queries: number; ms: number }> {
  const queriesBefore = queries;
  const started = performance.now();
  let items = 0;
  for await (const _ of read()) items++;
  return { items, queries: queries - queriesBefore, ms: performance.now() - started };
}

async function exportSection(endpoint: string, tableName: string): Promise<void> {
  const rows: string[][] = [];
  const small = new Date(end.getTime() - 86_400_000).toISOString();
  const year = new Date(end.getTime() - 365 * 86_400_000).toISOString();
  for (const [label, since, heap] of [
    ['1 day', small, ''],
    ['365 days', year, ''],
    ['all', '2000-01-01', ''],
    ['all', '2000-01-01', '--max-old-space-size=96'],
  ] as const) {
    for (const format of ['csv', 'jsonl']) {
      const { stderr } = await promisify(execFile)(
        '/usr/bin/time',
        [
          '-f',
          'maxrss %M',
          'npm',
          'run',
          '-s',
          'query',
          '--',
          'export',
          '--since',
          since,
          '--until',
          end.toISOString(),
          '--format',
          format,
          '--endpoint',
          endpoint,
        ],
        {
          env: { ...process.env, TABLE_NAME: tableName, NODE_OPTIONS: heap },
          maxBuffer: 1024 * 1024 * 1024,
        },
      );
      const kb = Number(/maxrss (\d+)/.exec(stderr)?.[1]);
      rows.push([label, format, heap ? '96 MB' : 'default', `${(kb / 1024).toFixed(0)} MB`]);
    }
  }
  print("## Peak RSS of npm run query -- export (the process tree's largest process)\n\n");
  print(textTable(['window', 'format', 'heap limit', 'peak RSS'], rows, { alignRight: [3] }));
  print(
    '\nAbout 130 MB is the process itself (tsx, the SDK). With the default heap V8 lets garbage ' +
      'pile up while allocation is fast; the run capped at a 96 MB heap exports every ' +
      'transaction too, so nothing is kept per transaction.\n',
  );
}
