/**
 * `npm run query`: reads recorded callbacks through the table's indexes (never a scan unless
 * `--scan` asks for one). Local mode's data by default; `--table` for a deployed table.
 */
import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, runProgram } from '../shared/command-program.js';
import { backfillTimeShard } from './backfill-time-shard.js';
import { conflictsTable } from './conflicts-table.js';
import { detailTable } from './item-table.js';
import { writeItems } from './list-output.js';
import { take } from './newest-first.js';
import { openTarget, type QueryTarget, type TargetFlags } from './query-target.js';
import { refusedCommand } from './refused-command.js';
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
import { summarize, summaryText } from './transaction-summary.js';

interface ListFlags extends TargetFlags {
  readonly format: 'table' | 'json';
  readonly username?: string;
  readonly since?: string;
  readonly until?: string;
  readonly scan: boolean;
  readonly type?: string;
  readonly status?: string;
  readonly limit: number;
}

interface ExportFlags extends TargetFlags {
  readonly format: 'csv' | 'jsonl';
  readonly username?: string;
  readonly since?: string;
  readonly until?: string;
  readonly type?: string;
  readonly status?: string;
  readonly limit?: number;
}

interface SummaryFlags extends TargetFlags {
  readonly format: 'table' | 'json' | 'csv';
  readonly since: string;
  readonly until?: string;
  readonly by?: 'day';
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
    .argument('<reference>', "the gateway's reference")
    .addOption(formatOption(['table', 'json'])),
).action(async (reference: string, flags: TargetFlags & { readonly format: 'table' | 'json' }) => {
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
    .addOption(formatOption(['table', 'json']))
    .option('--username <username>', "a user's transactions (index byUser)")
    .option('--since <ISO>', 'received at or after; a date alone means midnight UTC')
    .option('--until <ISO>', 'received before (default now)')
    .option('--scan', 'read the whole table (a full read: only when asked)', false)
    .addOption(choice('--type <type>', 'Deposit or Withdrawal', ['Deposit', 'Withdrawal']))
    .addOption(choice('--status <status>', 'Confirm or Reject', ['Confirm', 'Reject']))
    .option('--limit <n>', 'at most n transactions', positiveInteger, 50),
).action(async (flags: ListFlags) => {
  const select = selection(flags, { scan: true });
  await withQueryTarget(flags, async (target) => {
    const items = take(select({ ...target, pageSize: Math.min(flags.limit, 1000) }), flags.limit);
    const count = await writeItems(items, flags.format, process.stdout);
    if (flags.format === 'table') {
      const more =
        count === flags.limit ? ` (the newest ${flags.limit}: raise --limit for more)` : '';
      write(`${count} transaction${count === 1 ? '' : 's'}${more}\n`);
    }
  });
});

withTarget(
  program
    .command('export')
    .description('every transaction of a window or user, newest first, streamed (no limit)')
    .addOption(formatOption(['csv', 'jsonl']).default('csv'))
    .option('--username <username>', "a user's transactions (index byUser)")
    .option('--since <ISO>', 'received at or after; a date alone means midnight UTC')
    .option('--until <ISO>', 'received before (default now)')
    .addOption(choice('--type <type>', 'Deposit or Withdrawal', ['Deposit', 'Withdrawal']))
    .addOption(choice('--status <status>', 'Confirm or Reject', ['Confirm', 'Reject']))
    .option('--limit <n>', 'at most n transactions (default: all)', positiveInteger),
).action(async (flags: ExportFlags) => {
  const select = selection({ ...flags, scan: false }, { scan: false });
  await withQueryTarget(flags, async (target) => {
    const items = select({ ...target, pageSize: streamPageSize });
    await writeItems(flags.limit ? take(items, flags.limit) : items, flags.format, process.stdout);
  });
});

withTarget(
  program
    .command('summary')
    .description('count and exact sum of amount per currency, type and status, from the index')
    .addOption(formatOption(['table', 'json', 'csv']))
    .requiredOption('--since <ISO>', 'received at or after; a date alone means midnight UTC')
    .option('--until <ISO>', 'received before (default now)')
    .addOption(new Option('--by <period>', 'also group by UTC day').choices(['day'])),
).action(async (flags: SummaryFlags) => {
  const window = timeWindow(flags.since, flags.until);
  await withQueryTarget(flags, async (target) => {
    const rows = await summarize(listByTime({ ...target, pageSize: streamPageSize }, window, {}), {
      byDay: flags.by === 'day',
    });
    write(summaryText(rows, flags.format, flags.by === 'day'));
  });
});

withTarget(
  program
    .command('backfill-time-shard')
    .description(
      'upgrading from byReceivedShard: give items written before byTime their timeShard (a scan)',
    ),
).action(async (flags: TargetFlags) => {
  await withQueryTarget(flags, async (target) => {
    const updated = await backfillTimeShard(target.client, target.tableName);
    write(`${updated} transaction${updated === 1 ? '' : 's'} given a timeShard.\n`);
  });
});

/**
 * Items per request when reading a whole window: sixteen shards are read at once, so this bounds
 * what is held (sixteen pages) instead of DynamoDB's 1 MB a page, at about one query per
 * thousand transactions.
 */
const streamPageSize = 1000;

/**
 * Which transactions a `list` or `export` reads, checked before anything is opened: exactly one
 * of --username, --since or (for list) --scan.
 */
function selection(
  flags: Omit<ListFlags, 'limit' | 'format'>,
  allowed: { readonly scan: boolean },
): (context: QueryContext) => AsyncIterable<StoredItem> {
  const modes = [flags.username !== undefined, flags.since !== undefined, flags.scan];
  if (modes.filter(Boolean).length !== 1) {
    throw new UsageError(
      `needs exactly one of --username${allowed.scan ? ', --since or --scan' : ' or --since'}`,
    );
  }
  if (flags.until !== undefined && flags.since === undefined) {
    throw new UsageError('--until needs --since');
  }
  if (flags.username === '') throw new UsageError('--username must not be empty');
  const window = flags.since === undefined ? undefined : timeWindow(flags.since, flags.until);
  const filters: Filters = {
    ...(flags.type ? { type: flags.type } : {}),
    ...(flags.status ? { status: flags.status } : {}),
  };
  const username = flags.username;
  if (username !== undefined) return (context) => listByUsername(context, username, filters);
  if (window) return (context) => listByTime(context, window, filters);
  return (context) => scanTransactions(context, filters);
}

program.addCommand(refusedCommand());

await runProgram(program, 'query');

/** The options every command takes: where to read. */
function withTarget(command: Command): Command {
  return command
    .option('--table <name>', 'a deployed table (AWS_REGION / AWS_PROFILE / credentials as usual)')
    .option(
      '--endpoint <url>',
      'a DynamoDB-compatible endpoint (default AWS_ENDPOINT_URL_DYNAMODB)',
    );
}

async function withQueryTarget(
  flags: TargetFlags,
  run: (target: QueryTarget) => Promise<void>,
): Promise<void> {
  const target = await openTarget(flags);
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

/** `--format`: the first choice is the default; json, jsonl and csv keep numbers as stored. */
function formatOption(formats: readonly string[]): Option {
  return new Option('--format <format>', 'output format').choices(formats).default(formats[0]);
}
