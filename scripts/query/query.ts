/**
 * `npm run query`: reads recorded callbacks through the table's indexes (never a scan unless
 * `--scan` asks for one). Local mode's data by default; `--table` for a deployed table.
 */
import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, runProgram } from '../shared/command-program.js';
import { localData } from '../shared/local-data.js';
import { textTable } from '../shared/text-table.js';
import { conflictsTable } from './conflicts-table.js';
import { detailTable, listHead, listRow } from './item-table.js';
import { take } from './newest-first.js';
import { type QueryTarget, resolveTarget } from './query-target.js';
import { exactJson, orderAttributes, type StoredItem } from './stored-item.js';
import { timeWindow } from './time-window.js';
import {
  type Filters,
  getTransaction,
  listByTime,
  listByUsername,
  type QueryContext,
  scanTransactions,
} from './transaction-queries.js';

interface TargetFlags {
  readonly table?: string;
  readonly endpoint?: string;
  readonly format: 'table' | 'json';
}

interface ListFlags extends TargetFlags {
  readonly username?: string;
  readonly since?: string;
  readonly until?: string;
  readonly scan: boolean;
  readonly type?: string;
  readonly status?: string;
  readonly limit: number;
}

const program = commandProgram('query', 'Read the recorded callbacks.').addHelpText(
  'after',
  `
Without --table or --endpoint it reads local mode's data (DATA_DIR, default .data): through the
running npm start server if there is one, else by opening the folder itself.`,
);

withTarget(
  program
    .command('get')
    .description('the transaction and any conflicting deliveries kept for audit')
    .argument('<reference>', "the gateway's reference"),
).action(async (reference: string, flags: TargetFlags) => {
  await withQueryTarget(flags, async (context) => {
    const found = await getTransaction(context, reference);
    if (!found.transaction) process.exitCode = 1;
    if (flags.format === 'json') {
      const transaction = found.transaction ? orderAttributes(found.transaction) : null;
      const conflicts = found.conflicts.map(orderAttributes);
      write(`${exactJson({ transaction, conflicts }, 2)}\n`);
    } else if (!found.transaction) {
      write(`No transaction with reference ${JSON.stringify(reference)}.\n`);
    } else {
      write(detailTable(found.transaction) + conflictsTable(found.conflicts));
    }
  });
});

withTarget(
  program
    .command('list')
    .description('transactions, newest first: by user, by time window, or (only when asked) all')
    .option('--username <username>', "a user's transactions (index byUsername)")
    .option('--since <ISO>', 'received at or after; a date alone means midnight UTC')
    .option('--until <ISO>', 'received before (default now)')
    .option('--scan', 'read the whole table (a full read: only when asked)', false)
    .addOption(choice('--type <type>', 'Deposit or Withdrawal', ['Deposit', 'Withdrawal']))
    .addOption(choice('--status <status>', 'Confirm or Reject', ['Confirm', 'Reject']))
    .option('--limit <n>', 'at most n transactions', positiveInteger, 50),
).action(async (flags: ListFlags) => {
  const modes = [flags.username !== undefined, flags.since !== undefined, flags.scan];
  if (modes.filter(Boolean).length !== 1) {
    throw new UsageError('list needs exactly one of --username, --since or --scan');
  }
  if (flags.until !== undefined && flags.since === undefined) {
    throw new UsageError('--until needs --since');
  }
  if (flags.username === '') throw new UsageError('--username must not be empty');
  // Check the whole command line before opening anything.
  const window = flags.since === undefined ? undefined : timeWindow(flags.since, flags.until);
  const filters: Filters = {
    ...(flags.type ? { type: flags.type } : {}),
    ...(flags.status ? { status: flags.status } : {}),
  };
  await withQueryTarget(flags, async (target) => {
    const context: QueryContext = { ...target, pageSize: Math.min(flags.limit, 1000) };
    const items =
      flags.username !== undefined
        ? listByUsername(context, flags.username, filters)
        : window
          ? listByTime(context, window, filters)
          : toAsync(await scanTransactions(context, filters));
    const count = await writeList(take(items, flags.limit), flags.format);
    if (flags.format === 'table') {
      const more =
        count === flags.limit ? ` (the newest ${flags.limit}: raise --limit for more)` : '';
      write(`${count} transaction${count === 1 ? '' : 's'}${more}\n`);
    }
  });
});

await runProgram(program, 'query');

/** The options every command takes: where to read, and how to print. */
function withTarget(command: Command): Command {
  return command
    .addOption(
      new Option('--format <format>', 'table, or json with numbers exact as stored')
        .choices(['table', 'json'])
        .default('table'),
    )
    .option('--table <name>', 'a deployed table (AWS_REGION / AWS_PROFILE / credentials as usual)')
    .option(
      '--endpoint <url>',
      'a DynamoDB-compatible endpoint (default AWS_ENDPOINT_URL_DYNAMODB)',
    );
}

/** Rows are written as they arrive: a table in blocks, JSON one item at a time. */
const tableBlock = 500;

async function writeList(
  items: AsyncIterable<StoredItem>,
  format: 'table' | 'json',
): Promise<number> {
  let count = 0;
  let block: string[][] = [];
  for await (const item of items) {
    if (format === 'json') {
      write(
        `${count === 0 ? '[\n' : ',\n'}  ${exactJson(orderAttributes(item), 2).replace(/\n/g, '\n  ')}`,
      );
    } else {
      block.push(listRow(item));
      if (block.length === tableBlock) {
        write(blockTable(block, count + 1 === block.length));
        block = [];
      }
    }
    count++;
  }
  if (format === 'json') write(count === 0 ? '[]\n' : '\n]\n');
  else if (count === 0) write('(no transactions)\n');
  else if (block.length > 0) write(blockTable(block, count === block.length));
  return count;
}

/** A block of the list table; only the first carries the header. */
function blockTable(rows: readonly string[][], first: boolean): string {
  const text = textTable(listHead, rows);
  return first ? text : text.slice(text.indexOf('\n') + 1);
}

async function withQueryTarget(
  flags: TargetFlags,
  run: (target: QueryTarget) => Promise<void>,
): Promise<void> {
  const endpoint = flags.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB;
  const target = await resolveTarget({
    ...(flags.table ? { table: flags.table } : {}),
    ...(endpoint ? { endpoint } : {}),
    data: localData(process.env.DATA_DIR),
    ...(process.env.TABLE_NAME ? { localTableName: process.env.TABLE_NAME } : {}),
  });
  try {
    await run(target);
  } catch (error) {
    if (error instanceof ResourceNotFoundException) {
      throw new Error(`Table ${target.tableName} was not found in ${target.description}.`, {
        cause: error,
      });
    }
    throw error;
  } finally {
    await target.close();
  }
}

function write(text: string): void {
  process.stdout.write(text);
}

/** A closed set of values, matched case-insensitively and given back in its canonical case. */
function choice(flags: string, description: string, allowed: readonly string[]): Option {
  return new Option(flags, description).choices(allowed).argParser((value: string) => {
    const match = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    if (!match) throw new InvalidArgumentError(`must be ${allowed.join(' or ')}.`);
    return match;
  });
}

function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('must be a positive integer.');
  return Number(value);
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  yield* items;
}
