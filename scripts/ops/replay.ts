/** `npm run replay`: republishes recorded transactions to the bus (docs/events.md). */
import { forwardDestination, forwardToOption } from '../events/forward-destination.js';
import { withTableOptions, withTarget } from '../query/query-target.js';
import { optionalWindow } from '../query/time-window.js';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, exitCodes, runProgram } from '../shared/command-program.js';
import { terminalText } from '../shared/terminal-text.js';
import { busOption, destination, replayTransactions } from './republish.js';

const program = withTableOptions(
  commandProgram(
    'replay',
    'Republish recorded transactions to the event bus, as the stream consumer did.',
    {
      ok: 'everything asked for was published',
      differences: 'a reference not found, or a record that cannot become an event',
    },
  )
    .argument('[references...]', 'the references to republish')
    .option('--since <ISO>', 'instead of references: everything received from this time')
    .option('--until <ISO>', 'end of the window, exclusive (default: now)')
    .addOption(busOption)
    .addOption(forwardToOption()),
).action(async (references, options) => {
  if (references.length > 0 === (options.since !== undefined)) {
    throw new UsageError('give references or --since, not both and not neither');
  }
  const window = optionalWindow(options.since, options.until);
  const selection = window ? { window } : { references };
  const bus = options.forwardTo
    ? await forwardDestination(options.forwardTo)
    : destination(options.bus);
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
    const causes = [...new Set(summary.failed.map(({ problem }) => problem))];
    const cause = causes.length === 1 ? `the cause (${causes[0]})` : 'the causes above';
    lines.push(`Run it again once ${cause} is fixed: consumers dedupe on reference.`);
  }
  process.stdout.write(`${lines.map(terminalText).join('\n')}\n`);
  // A publish that failed is worth running again (3); a missing reference is an answer (1).
  const { failed, unpublishable, notFound } = summary;
  if (failed.length > 0) process.exitCode = exitCodes.failed;
  else if (unpublishable.length + notFound.length > 0) process.exitCode = exitCodes.differences;
});

await runProgram(program, 'replay');
