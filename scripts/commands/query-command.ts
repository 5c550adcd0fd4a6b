/** `npm run query`: reads through the indexes, a scan only when asked (docs/querying.md). */
import {
  type Command,
  InvalidArgumentError,
  Option,
  type OptionValues,
} from '@commander-js/extra-typings';
import { positiveInteger, UsageError } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { exactJson } from '../cli/output/exact-json.js';
import { writeListing } from '../cli/output/listing.js';
import { outputPlan, withOutputOptions } from '../cli/output/output-options.js';
import { withProgress } from '../cli/output/progress.js';
import { refusalListView, refusalView, showsBodies } from '../operations/refusal-listing.js';
import { searchedLine, searchView, unsearchable } from '../operations/search-listing.js';
import { historyTable, transactionVersions } from '../operations/transaction-history.js';
import { conflictsTable, detailTable, transactionView } from '../operations/transaction-listing.js';
import { listRefusalSummaries, listRefusals } from '../table/kept-refusals.js';
import { listConflicts } from '../table/reference-state.js';
import { orderAttributes, type StoredItem } from '../table/stored-item.js';
import { optionalWindow, timeWindow } from '../table/time-window.js';
import {
  getTransaction,
  listByTime,
  listByUsername,
  type QueryContext,
  scanTransactions,
  take,
  windowPageSize,
} from '../table/transaction-queries.js';
import { defaultSearchLimit, searchTransactions } from '../table/transaction-search.js';
import { conflictListView } from './query-conflicts.js';
import { summarize, summaryFormats, summaryView } from './query-summary.js';
import { addTailCommand } from './query-tail.js';
import { withTableOptions, withTarget } from './table-target.js';

/** Before anything this receiver can have recorded: `list` with no selection reads back to it. */
const allTime = '2000-01-01';

const program = commandProgram('query', 'Read the recorded callbacks.', {
  ok: 'read and printed',
  differences: 'get: no transaction with that reference',
}).addHelpText(
  'after',
  `
Without --table or --endpoint it reads local mode's data (DATA_DIR, default .data): through the
running npm start server if there is one, else by opening the folder itself.`,
);

withTableOptions(
  program
    .command('get')
    .description('the transaction, its history of versions, and any conflicting deliveries kept')
    .argument('<reference>', "the gateway's reference")
    .addOption(formatOption(['table', 'json'])),
).action(async (reference, flags) => {
  await withTarget(flags, async (context) => {
    const found = await getTransaction(context, reference);
    if (!found.transaction) process.exitCode = exitCodes.differences;
    if (flags.format === 'json') {
      const transaction = found.transaction ? orderAttributes(found.transaction) : null;
      const conflicts = found.conflicts.map(orderAttributes);
      const history = found.transaction ? transactionVersions(found.transaction) : [];
      write(`${exactJson({ transaction, history, conflicts }, 2)}\n`);
    } else if (!found.transaction) {
      write(`No transaction with reference ${exactJson(reference)}.\n`);
    } else {
      write(
        detailTable(withoutBookkeeping(found.transaction)) +
          historyTable(found.transaction) +
          conflictsTable(found.conflicts, (found.transaction.settlements ?? {}) as StoredItem),
      );
    }
  });
});

withTableOptions(
  withOutputOptions(
    program
      .command('search')
      .description(
        "transactions by a reference or its start, the gateway's id, or a username in any case",
      )
      .argument('[text]', 'what to look for (or --q)')
      .option('--q <text>', "what to look for, as the console's /transactions?q="),
    searchView.formats,
  ).option(
    '--limit <n>',
    'at most n matches of each kind',
    positiveInteger('--limit'),
    defaultSearchLimit,
  ),
).action(async (positional, flags) => {
  const text = (positional ?? flags.q)?.trim();
  if (!text || (positional !== undefined && flags.q !== undefined)) {
    throw new UsageError('give what to look for, as an argument or --q, once');
  }
  outputPlan(flags, searchView.formats);
  await withTarget(flags, async (target) => {
    const { rows, searched } = await searchTransactions(target, text, flags.limit);
    await writeListing(rows, searchView, flags, {
      summary: { searched },
      footer: () => `Searched:\n${searched.map((kind) => `  ${searchedLine(kind)}\n`).join('')}`,
    });
    if (searched.length === 0) {
      process.stderr.write(`query: ${JSON.stringify(text)} ${unsearchable}\n`);
    }
  });
});

withTableOptions(
  withOutputOptions(
    program
      .command('conflicts')
      .description(
        'open conflicts (all with --all): deliveries, and how each differs from the stored transaction',
      ),
    conflictListView.formats,
  ).option('--all', 'settled conflicts too', false),
).action(async (flags) => {
  outputPlan(flags, conflictListView.formats);
  await withTarget(flags, async (target) => {
    // Conflicts are few (one per distinct content refused): read whole, then listed.
    const conflicts = await listConflicts(target, { all: flags.all });
    await writeListing(conflicts, conflictListView, flags, {
      footer: (count) =>
        count === 0
          ? `(no ${flags.all ? '' : 'open '}conflicts)\n`
          : `${count} ${flags.all ? '' : 'open '}conflict${count === 1 ? '' : 's'}\n`,
    });
  });
});

withSelectionOptions(
  withOutputOptions(
    program
      .command('list')
      .description(
        'transactions, newest first: by user, by time window, or (only when asked) all; with none, the newest',
      ),
    ['table', 'json', 'jsonl', 'csv'],
  )
    .option('--scan', 'read the whole table (a full read: only when asked)', false)
    .option('--limit <n>', 'at most n transactions', positiveInteger('--limit'), 50),
).action(async (flags) => {
  const select = selection(flags);
  outputPlan(flags, transactionView.formats);
  await withTarget(flags, async (target) => {
    const pageSize = Math.min(flags.limit, windowPageSize);
    const items = take(select({ ...target, pageSize }), flags.limit);
    await writeListing(items, transactionView, flags, {
      footer: (count) => {
        if (count === 0) return '(no transactions)\n';
        const more =
          count === flags.limit ? ` (the newest ${flags.limit}: raise --limit for more)` : '';
        return `${count} transaction${count === 1 ? '' : 's'}${more}\n`;
      },
    });
  });
});

withSelectionOptions(
  withOutputOptions(
    program
      .command('export')
      .description('every transaction of a window or user, newest first, streamed (no limit)'),
    ['csv', 'jsonl', 'json', 'table'],
  ).option('--limit <n>', 'at most n transactions (default: all)', positiveInteger('--limit')),
).action(async (flags) => {
  const select = selection(flags);
  outputPlan(flags, transactionView.formats);
  await withTarget(flags, async (target) => {
    const items = select({ ...target, pageSize: windowPageSize });
    await writeListing(flags.limit ? take(items, flags.limit) : items, transactionView, flags, {
      footer: (count) => `${count} transaction${count === 1 ? '' : 's'}\n`,
    });
  });
});

withTableOptions(
  withOutputOptions(
    program
      .command('summary')
      .description('count and exact sum of amount per currency, type and status, from the index'),
    summaryFormats,
  )
    .requiredOption('--since <ISO>', 'received at or after; a date alone means midnight UTC')
    .option('--until <ISO>', 'received before (default now)')
    .addOption(new Option('--by <period>', 'also group by UTC day').choices(['day'])),
).action(async (flags) => {
  const window = timeWindow(flags.since, flags.until);
  outputPlan(flags, summaryFormats);
  await withTarget(flags, async (target) => {
    const items = listByTime(target, window, {});
    const byDay = flags.by === 'day';
    const rows = await summarize(withProgress(items, 'transactions'), { byDay });
    await writeListing(rows, summaryView(byDay), flags, {
      footer: (count) => (count === 0 ? '(no transactions in the window)\n' : ''),
    });
  });
});

withTableOptions(
  withOutputOptions(
    program
      .command('refused')
      .description(
        'authenticated deliveries refused for their content (400, 403, 413, 415, 422), newest first',
      ),
    refusalView.formats,
  )
    .option('--since <ISO>', 'last delivered at or after; a date alone means midnight UTC')
    .option('--reference <reference>', 'only those whose body names this reference'),
  'a deployed refusals table (the stack output RefusalsTableName)',
).action(async (flags) => {
  const since = flags.since === undefined ? undefined : timeWindow(flags.since, undefined).since;
  const plan = outputPlan(flags, refusalView.formats);
  const filters = { since, reference: flags.reference };
  const footer = (count: number) =>
    count === 0 ? '(no kept refusals)\n' : `${count} kept refusal${count === 1 ? '' : 's'}\n`;
  await withTarget(
    flags,
    async (target) => {
      // Streamed from the refusals index; whole items are read back, a few at a time, only
      // when the output shows bodies: the table and CSV need the index entries alone.
      if (showsBodies([plan.terminal, plan.file?.format])) {
        await writeListing(listRefusals(target, filters), refusalView, flags, { footer });
      } else {
        await writeListing(listRefusalSummaries(target, filters), refusalListView, flags, {
          footer,
        });
      }
    },
    'refusals',
  );
});

addTailCommand(program);

withExamples(program, [
  'query list',
  'query get T-1001',
  'query export --since 2026-11-27 --format csv > window.csv',
]);
const examples: Record<string, string[]> = {
  get: ['query get T-1001', 'query get T-1001 --format json'],
  conflicts: ['query conflicts', 'query conflicts --all --format json'],
  search: ['query search T-10', 'query search ALICE --format json', 'query search --q 5012345'],
  list: [
    'query list',
    'query list --username alice --status Reject',
    'query list --since 2026-11-27 --format json',
  ],
  export: [
    'query export --since 2026-11-27 --until 2026-11-28 > window.csv',
    'query export --username alice --format jsonl',
  ],
  summary: [
    'query summary --since 2026-11-01 --by day',
    'query summary --since 2026-11-27 --format json',
  ],
  refused: ['query refused', 'query refused --since 2026-11-27 --reference T-1001'],
  tail: ['query tail', 'query tail --format jsonl --interval 5000 > arrivals.jsonl'],
};
for (const command of program.commands) withExamples(command, examples[command.name()] ?? []);

await runProgram(program, 'query');

/** Which transactions `list` and `export` read. */
function withSelectionOptions<Opts extends OptionValues>(command: Command<[], Opts>) {
  return withTableOptions(
    command
      .option('--username <username>', "a user's transactions (index byUser)")
      .option('--since <ISO>', 'received at or after; a date alone means midnight UTC')
      .option('--until <ISO>', 'received before (default now)')
      .addOption(choice('--type <type>', 'Deposit or Withdrawal', ['Deposit', 'Withdrawal']))
      .addOption(choice('--status <status>', 'Confirm or Reject', ['Confirm', 'Reject'])),
  );
}

/**
 * Checked before anything is opened: at most one of --username, --since or (list) --scan. `list`
 * with none reads the newest through the time index (a page per shard, --limit long); `export`
 * with none is refused, since it would stream the whole table unasked.
 */
function selection(
  flags: Partial<Record<'username' | 'since' | 'until' | 'type' | 'status', string>> & {
    readonly scan?: boolean;
  },
): (context: QueryContext) => AsyncIterable<StoredItem> {
  const modes = [flags.username !== undefined, flags.since !== undefined, flags.scan === true];
  const chosen = modes.filter(Boolean).length;
  if (chosen === 0 && flags.scan !== undefined) {
    const everything = timeWindow(allTime, flags.until);
    return (context) => listByTime(context, everything, flags);
  }
  if (chosen !== 1) {
    const scan = flags.scan === undefined ? ' or --since' : ', --since or --scan';
    const howMany = flags.scan === undefined ? 'exactly' : 'at most';
    throw new UsageError(`needs ${howMany} one of --username${scan}`);
  }
  const window = optionalWindow(flags.since, flags.until);
  if (flags.username === '') throw new UsageError('--username must not be empty');
  // --type and --status: the queries read only those two of the flags as filters.
  const { username } = flags;
  if (username !== undefined) return (context) => listByUsername(context, username, flags);
  if (window) return (context) => listByTime(context, window, flags);
  return (context) => scanTransactions(context, flags);
}

/** The table view's detail lines: the history and decisions get tables of their own. */
function withoutBookkeeping(item: StoredItem): StoredItem {
  const { history: _h, settlements: _s, correction: _c, ...rest } = item;
  return rest;
}

function write(text: string): void {
  process.stdout.write(text);
}

/** A closed set of values, matched case-insensitively and given back in its canonical case. */
function choice<const Flags extends string, const T extends string>(
  flags: Flags,
  description: string,
  allowed: readonly T[],
) {
  return new Option(flags, description).choices(allowed).argParser((value) => {
    const match = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    if (!match) throw new InvalidArgumentError(`must be ${allowed.join(' or ')}.`);
    return match;
  });
}

/** `--format`: the first choice is the default; json, jsonl and csv keep numbers as stored. */
function formatOption<const T extends string>(formats: readonly [T, ...T[]]) {
  return new Option('--format <format>', 'output format').choices(formats).default(formats[0]);
}
