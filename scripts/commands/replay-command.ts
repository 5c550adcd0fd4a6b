/** `npm run replay`: republishes recorded transactions to the bus (docs/events.md). */

import { UsageError } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { type ListingView, openListing } from '../cli/output/listing.js';
import { outputPlan, withOutputOptions } from '../cli/output/output-options.js';
import { Progress } from '../cli/output/progress.js';
import { terminalText } from '../cli/terminal-text.js';
import {
  allowRemoteOption,
  checkForwardTarget,
  forwardToOption,
} from '../operations/events/forward-destination.js';
import { type ReplayProblem, replayTransactions } from '../operations/events/replay.js';
import { busOption, destination } from '../operations/events/republish.js';
import { optionalWindow } from '../table/time-window.js';
import { forwardDestination } from './local-events.js';
import { withTableOptions, withTarget } from './table-target.js';

const program = withTableOptions(
  withOutputOptions(
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
      .addOption(forwardToOption())
      .addOption(allowRemoteOption()),
    ['table', 'json', 'jsonl', 'csv'],
  ),
).action(async (references, options) => {
  if (references.length > 0 === (options.since !== undefined)) {
    throw new UsageError('give references or --since, not both and not neither');
  }
  const window = optionalWindow(options.since, options.until);
  if (options.forwardTo) checkForwardTarget(options.forwardTo, '--forward-to', options.allowRemote);
  const selection = window ? { window } : { references };
  const bus = options.forwardTo
    ? await forwardDestination(options.forwardTo)
    : destination(options.bus);
  outputPlan(options, replayView.formats);
  const summary = await withTarget(options, async (target) => {
    const listing = await openListing(replayView, options, { summaryLine: true });
    // Why publishing failed, named once in the advice under the table (a few kinds at most).
    const causes = new Set<string>();
    const progress = new Progress('transactions replayed');
    try {
      const counts = await replayTransactions(
        { ...target, ...bus },
        selection,
        (problem) => {
          if (problem.kind === 'failed' && causes.size < 10) causes.add(problem.problem);
          return listing.add(problem);
        },
        (count) => progress.add(count),
      );
      // The bar's line is cleared before the table and counts are printed under it.
      progress.stop();
      const cause = causes.size === 1 ? `the cause (${[...causes][0]})` : 'the causes above';
      await listing.finish({
        summary: { ...counts },
        footer: () =>
          `Published ${counts.published} Transaction Completed event(s) to ${terminalText(bus.eventBusName)}.\n` +
          (counts.failed > 0
            ? `${terminalText(`Run it again once ${cause} is fixed`)}: consumers dedupe on reference.\n`
            : ''),
      });
      return counts;
    } finally {
      progress.stop();
      await listing.close();
    }
  });
  // A publish that failed is worth running again (3); a missing reference is an answer (1).
  const { failed, unpublishable, notFound } = summary;
  if (failed > 0) process.exitCode = exitCodes.failed;
  else if (unpublishable + notFound > 0) process.exitCode = exitCodes.differences;
});

/** Each problem as a table row, a JSON object (`kind`: notFound, failed, unpublishable), CSV. */
const replayView: ListingView<ReplayProblem> = {
  what: 'problems',
  formats: ['table', 'json', 'jsonl', 'csv'],
  tableHead: ['outcome', 'reference', 'problem'],
  tableRows: (problem) => [[outcomeText[problem.kind], subject(problem), problem.problem]],
  json: (problem) => problem,
  csvHead: ['kind', 'reference', 'problem'],
  csvRows: (problem) => [[problem.kind, subject(problem), problem.problem]],
};

const outcomeText = {
  notFound: 'not found',
  failed: 'not published',
  unpublishable: 'unpublishable',
};

const subject = (problem: ReplayProblem) =>
  problem.kind === 'unpublishable' ? `record ${problem.record}` : problem.reference;

withExamples(program, [
  'replay T-1001 T-1002 --bus callback-events',
  'replay --since 2026-11-27 --forward-to http://127.0.0.1:9000/events',
]);

await runProgram(program, 'replay');
