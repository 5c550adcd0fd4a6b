/**
 * `npm run replay -- <reference…> | --since <ISO> [--until <ISO>]`: republishes recorded
 * transactions to the bus as the stream consumer would. Exit 0 when every one was published,
 * 1 when any was not (or a reference holds nothing), 2 on a usage error.
 */

import { openTarget } from '../query/query-target.js';
import { timeWindow } from '../query/time-window.js';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, runProgram } from '../shared/command-program.js';
import { terminalText } from '../shared/terminal-text.js';
import { withTableOptions } from './command-line.js';
import { eventBusName, eventPublisher } from './event-clients.js';
import { type ReplaySummary, replayTransactions } from './replay-transactions.js';

interface ReplayOptions {
  readonly since?: string;
  readonly until?: string;
  readonly bus?: string;
  readonly table?: string;
  readonly endpoint?: string;
}

const program = withTableOptions(
  commandProgram(
    'replay',
    'Republish recorded transactions to the event bus, as the stream consumer did.',
  )
    .argument('[references...]', 'the references to republish')
    .option('--since <ISO>', 'instead of references: everything received from this time')
    .option('--until <ISO>', 'end of the window, exclusive (default: now)')
    .option('--bus <name>', 'the event bus (default EVENT_BUS_NAME; stack output EventBusName)'),
).action(async (references: string[], options: ReplayOptions) => {
  if (references.length > 0 === (options.since !== undefined)) {
    throw new UsageError('give references or --since, not both and not neither');
  }
  if (options.until !== undefined && options.since === undefined) {
    throw new UsageError('--until needs --since');
  }
  const selection =
    options.since === undefined
      ? { references }
      : { window: timeWindow(options.since, options.until) };
  const bus = eventBusName(options.bus);
  const target = await openTarget(options);
  try {
    const summary = await replayTransactions(
      {
        client: target.client,
        tableName: target.tableName,
        publisher: eventPublisher(),
        eventBusName: bus,
      },
      selection,
    );
    process.stdout.write(replayReport(summary, bus));
    const complete =
      summary.failed.length + summary.unpublishable.length + summary.notFound.length === 0;
    process.exitCode = complete ? 0 : 1;
  } finally {
    await target.close();
  }
});

function replayReport(summary: ReplaySummary, bus: string): string {
  const lines = [
    `Published ${summary.published} Transaction Completed event(s) to ${terminalText(bus)}.`,
  ];
  for (const reference of summary.notFound) {
    lines.push(`not found: ${terminalText(reference)} (no recorded transaction)`);
  }
  for (const { reference, problem } of summary.failed) {
    lines.push(`not published: ${terminalText(reference)} (${terminalText(problem)})`);
  }
  for (const { record, problem } of summary.unpublishable) {
    lines.push(`unpublishable: ${terminalText(record)} (${terminalText(problem)})`);
  }
  if (summary.failed.length > 0)
    lines.push('Run it again once the cause is fixed: consumers dedupe on reference.');
  return `${lines.join('\n')}\n`;
}

await runProgram(program, 'replay');
