/** `npm run redrive`: drains the stream consumer's dead-letter queue (docs/events.md). */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { Option } from '@commander-js/extra-typings';
import { positiveInteger, UsageError } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { type ListingView, openListing } from '../cli/output/listing.js';
import { outputPlan, withOutputOptions } from '../cli/output/output-options.js';
import { Progress } from '../cli/output/progress.js';
import { requestHandler } from '../cli/request-handler.js';
import {
  allowRemoteOption,
  checkForwardTarget,
  forwardToOption,
} from '../operations/events/forward-destination.js';
import { type MessageOutcome, redriveQueue } from '../operations/events/redrive-queue.js';
import { busOption, destination } from '../operations/events/republish.js';
import { redriveLocalDeadLetters } from './redrive-local.js';
import { withTableOptions, withTarget } from './table-target.js';

const program = withTableOptions(
  withOutputOptions(
    commandProgram(
      'redrive',
      "Republish the stream consumer's dead-lettered batches, then delete them.",
      {
        ok: 'the queue is drained',
        differences:
          'a message kept for its content: not a batch, or records that cannot become events',
      },
    )
      .addOption(
        new Option(
          '--queue <url>',
          'the dead-letter queue (stack output EventsDeadLetterQueueUrl)',
        ).env('EVENTS_DLQ_URL'),
      )
      .addOption(busOption)
      .addOption(
        forwardToOption(
          "instead of the queue: re-send local mode's dead letters (DATA_DIR/events) to this URL",
        ),
      )
      .addOption(allowRemoteOption())
      .option(
        '--max-messages <n>',
        'stop after n messages (default: all)',
        positiveInteger('--max-messages'),
      ),
    ['table', 'json', 'jsonl', 'csv'],
  ),
).action(async (options) => {
  if (options.forwardTo) {
    checkForwardTarget(options.forwardTo, '--forward-to', options.allowRemote);
    process.exitCode = await redriveLocalDeadLetters(options.forwardTo);
    return;
  }
  const queueUrl = options.queue;
  if (!queueUrl) throw new UsageError('name the queue with --queue or EVENTS_DLQ_URL');
  const bus = destination(options.bus);
  const sqs = new SQSClient({ requestHandler });
  const streams = new DynamoDBStreamsClient({ requestHandler });
  outputPlan(options, redriveView.formats);
  let keptForFailure = 0;
  try {
    const counts = await withTarget(options, async (target) => {
      const listing = await openListing(redriveView, options, { summaryLine: true });
      const progress = new Progress('dead-letter messages');
      try {
        const redriven = await redriveQueue(
          { ...target, ...bus, sqs, streams },
          { queueUrl, maxMessages: options.maxMessages },
          (outcome) => {
            progress.add();
            if (!outcome.deleted && outcome.keptFor === 'failure') keptForFailure += 1;
            return listing.add(outcome);
          },
        );
        // The bar's line is cleared before the table and counts are printed under it.
        progress.stop();
        await listing.finish({
          summary: { ...redriven },
          footer: () =>
            redriven.messages === 0
              ? 'The dead-letter queue is empty.\n'
              : `${redriven.deleted} of ${redriven.messages} message(s) redriven and deleted.\n`,
        });
        return redriven;
      } finally {
        progress.stop();
        await listing.close();
      }
    });
    // A message kept because publishing or reading failed is worth running again (3).
    if (keptForFailure > 0) process.exitCode = exitCodes.failed;
    else if (counts.deleted < counts.messages) process.exitCode = exitCodes.differences;
  } finally {
    sqs.destroy();
    streams.destroy();
  }
});

/** One row per dead-letter message: where its records came from, and what became of it. */
const redriveView: ListingView<MessageOutcome> = {
  what: 'messages',
  formats: ['table', 'json', 'jsonl', 'csv'],
  tableHead: ['message', 'source', 'published', 'result'],
  tableRows: (outcome) => [
    [outcome.messageId, outcome.source, String(published(outcome)), resultText(outcome)],
  ],
  json: ({ messageId, source, deleted, outcome, problem }) => ({
    messageId,
    source,
    deleted,
    published: outcome?.published.length ?? 0,
    failed: outcome?.failed ?? [],
    unpublishable: outcome?.unpublishable ?? [],
    ...(problem === undefined ? {} : { problem }),
  }),
  csvHead: ['messageId', 'source', 'published', 'deleted', 'result'],
  csvRows: (outcome) => [
    [
      outcome.messageId,
      outcome.source,
      String(published(outcome)),
      String(outcome.deleted),
      resultText(outcome),
    ],
  ],
};

const published = (outcome: MessageOutcome) => outcome.outcome?.published.length ?? 0;

/** `deleted`, or why the message was kept in the queue. */
function resultText({ deleted, outcome, problem }: MessageOutcome): string {
  if (deleted) return 'deleted';
  const why = [
    ...(problem === undefined ? [] : [problem]),
    ...(outcome?.failed ?? []).map((f) => `${f.reference} not published (${f.problem})`),
    ...(outcome?.unpublishable ?? []).map((u) => `record ${u.record} unpublishable (${u.problem})`),
  ];
  return `kept in the queue: ${why.join('; ')}`;
}

withExamples(program, [
  'redrive --queue https://sqs.eu-west-1.amazonaws.com/123456789012/events-dlq --bus callback-events',
  'redrive --forward-to http://127.0.0.1:9000/events',
]);

await runProgram(program, 'redrive');
