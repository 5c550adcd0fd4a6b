/** `npm run replay`: republishes recorded transactions to the bus (docs/events.md). */
import { withTableOptions, withTarget } from '../query/query-target.js';
import { optionalWindow } from '../query/time-window.js';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, runProgram } from '../shared/command-program.js';
import { terminalText } from '../shared/terminal-text.js';
import { busOption, destination, replayTransactions } from './republish.js';

const program = withTableOptions(
  commandProgram(
    'replay',
    'Republish recorded transactions to the event bus, as the stream consumer did.',
  )
    .argument('[references...]', 'the references to republish')
    .option('--since <ISO>', 'instead of references: everything received from this time')
    .option('--until <ISO>', 'end of the window, exclusive (default: now)')
    .addOption(busOption),
).action(async (references, options) => {
  if (references.length > 0 === (options.since !== undefined)) {
    throw new UsageError('give references or --since, not both and not neither');
  }
  const window = optionalWindow(options.since, options.until);
  const selection = window ? { window } : { references };
  const bus = destination(options.bus);
  const summary = await withTarget(options, (target) =>
    replayTransactions({ ...target, ...bus }, selection),
  );
  const lines = [
    `Published ${summary.published} Transaction Completed event(s) to ${bus.eventBusName}.`,
    ...summary.notFound.map((reference) => `not found: ${reference} (no recorded transaction)`),
    ...summary.failed.map(({ reference, problem }) => `not published: ${reference} (${problem})`),
    ...summary.unpublishable.map(({ record, problem }) => `unpublishable: ${record} (${problem})`),
  ];
  if (summary.failed.length > 0) {
    lines.push('Run it again once the cause is fixed: consumers dedupe on reference.');
  }
  process.stdout.write(`${lines.map(terminalText).join('\n')}\n`);
  const { failed, unpublishable, notFound } = summary;
  process.exitCode = failed.length + unpublishable.length + notFound.length === 0 ? 0 : 1;
});

await runProgram(program, 'replay');
