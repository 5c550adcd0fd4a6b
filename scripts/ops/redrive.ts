/** `npm run redrive`: drains the stream consumer's dead-letter queue (docs/events.md). */
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { SQSClient } from '@aws-sdk/client-sqs';
import { Option } from '@commander-js/extra-typings';
import { forwardToOption } from '../events/forward-destination.js';
import { requestHandler, withTableOptions, withTarget } from '../query/query-target.js';
import { positiveInteger, UsageError } from '../shared/cli-errors.js';
import { commandProgram, exitCodes, runProgram } from '../shared/command-program.js';
import { terminalText } from '../shared/terminal-text.js';
import { redriveLocalDeadLetters } from './redrive-local.js';
import { type MessageOutcome, redriveQueue } from './redrive-queue.js';
import { busOption, destination } from './republish.js';

const program = withTableOptions(
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
    .option(
      '--max-messages <n>',
      'stop after n messages (default: all)',
      positiveInteger('--max-messages'),
    ),
).action(async (options) => {
  if (options.forwardTo) {
    process.exitCode = await redriveLocalDeadLetters(options.forwardTo);
    return;
  }
  const queueUrl = options.queue;
  if (!queueUrl) throw new UsageError('name the queue with --queue or EVENTS_DLQ_URL');
  const bus = destination(options.bus);
  const sqs = new SQSClient({ requestHandler });
  const streams = new DynamoDBStreamsClient({ requestHandler });
  try {
    const outcomes = await withTarget(options, (target) =>
      redriveQueue(
        { ...target, ...bus, sqs, streams },
        { queueUrl, maxMessages: options.maxMessages },
      ),
    );
    process.stdout.write(redriveReport(outcomes));
    // A message kept because publishing or reading failed is worth running again (3).
    const kept = outcomes.filter((outcome) => !outcome.deleted);
    if (kept.some((outcome) => outcome.keptFor === 'failure')) process.exitCode = exitCodes.failed;
    else if (kept.length > 0) process.exitCode = exitCodes.differences;
  } finally {
    sqs.destroy();
    streams.destroy();
  }
});

function redriveReport(outcomes: readonly MessageOutcome[]): string {
  if (outcomes.length === 0) return 'The dead-letter queue is empty.\n';
  const lines = outcomes.map(({ messageId, source, deleted, outcome, problem }) => {
    const published = outcome
      ? `${outcome.published.length} event(s) published from the ${source}`
      : '';
    if (deleted) return `${messageId}: ${published}; deleted`;
    const why = [
      ...(problem === undefined ? [] : [problem]),
      ...(outcome?.failed ?? []).map((f) => `${f.reference} not published (${f.problem})`),
      ...(outcome?.unpublishable ?? []).map(
        (u) => `record ${u.record} unpublishable (${u.problem})`,
      ),
    ];
    return `${messageId}: kept in the queue: ${terminalText(why.join('; '))}${published ? ` (${published})` : ''}`;
  });
  const deleted = outcomes.filter((outcome) => outcome.deleted).length;
  lines.push(`${deleted} of ${outcomes.length} message(s) redriven and deleted.`);
  return `${lines.join('\n')}\n`;
}

await runProgram(program, 'redrive');
