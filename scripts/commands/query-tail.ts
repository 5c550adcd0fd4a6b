import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, Option } from '@commander-js/extra-typings';
import { positiveInteger, UsageError } from '../cli/cli-errors.js';
import { exactJson } from '../cli/output/exact-json.js';
import { terminalText } from '../cli/terminal-text.js';
import { localData } from '../local/local-data.js';
import { runningServer } from '../local/local-target.js';
import { LiveCursor, type LiveEntry } from '../table/live-cursor.js';
import { displayValue } from '../table/stored-item.js';
import { withTableOptions, withTarget } from './table-target.js';

/** The fields a line shows, in this order: enough to recognise a payment at a glance. */
const lineFields = ['receivedAt', 'reference', 'username', 'amount', 'currency', 'type', 'status'];

/**
 * `npm run query -- tail`: the transactions received from now on, one line each, as they come,
 * until Ctrl-C. It follows the time index with the live cursor local mode's forwarding uses, so
 * each read costs the same whatever the table holds.
 */
export function addTailCommand(program: Command) {
  return withTableOptions(
    program
      .command('tail')
      .description('follow the transactions received from now on, one line each (Ctrl-C stops)')
      .addOption(
        new Option('--format <format>', 'a line of the main fields, or each entry as JSON')
          .choices(['line', 'jsonl'] as const)
          .default('line' as const),
      )
      .option(
        '--interval <ms>',
        'pause between two reads of the table',
        positiveInteger('--interval'),
        1000,
      ),
  ).action(async (flags) => {
    if (!flags.table && !flags.endpoint) {
      // Opening the folder itself would hold it, and keep `npm start` from starting.
      const server = await runningServer(localData(process.env.DATA_DIR));
      if (!server) {
        throw new UsageError(
          'tail follows a running server: start it (npm start) first, or name a table (--table)',
        );
      }
    }
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
    try {
      await withTarget(flags, async (target) => {
        const cursor = await LiveCursor.startingNow(target);
        process.stderr.write(`${terminalText(`Following ${target.description}`)}; Ctrl-C stops.\n`);
        while (!stop.signal.aborted) {
          for (const entry of await cursor.next()) {
            process.stdout.write(`${flags.format === 'jsonl' ? json(entry) : line(entry)}\n`);
          }
          await sleep(flags.interval, undefined, { signal: stop.signal }).catch(() => {});
        }
      });
    } finally {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    }
  });
}

function line(entry: LiveEntry): string {
  return lineFields
    .map((name) => terminalText(displayValue(entry.listed?.[name])))
    .join('  ')
    .trimEnd();
}

function json(entry: LiveEntry): string {
  return exactJson(entry.listed ?? { reference: entry.key, receivedAt: entry.receivedAt });
}
