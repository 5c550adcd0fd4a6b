/**
 * `npm run simulate`: the payment gateway's side. Builds realistic callbacks from a seed, signs
 * them as the gateway does, POSTs them with retries, and prints what the receiver answered.
 */
import { randomBytes } from 'node:crypto';
import { SingleBar } from 'cli-progress';
import { apiKeyVariable, resolveApiKey, withKeyOptions } from '../cli/api-key-option.js';
import { fraction, httpUrl, positiveInteger, UsageError } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { deliver } from '../gateway/deliver.js';
import { planDeliveries } from '../gateway/delivery-plan.js';
import { callbackBody } from '../gateway/gateway-callback.js';
import { seededRandom } from '../gateway/seeded-random.js';
import { runSimulation } from '../gateway/simulate.js';
import { formatSummary, summarize } from '../gateway/summary.js';
import { localData } from '../local/local-data.js';
import { localApiKey, runningServer } from '../local/local-target.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';

interface SimulateOptions {
  url?: string;
  key?: string;
  keyFile?: string;
  count: number;
  concurrency: number;
  duplicates: number;
  conflicts: number;
  hash: boolean;
  utf8?: boolean;
  seed?: string;
  maxAttempts: number;
  backoffMs: number;
  timeoutMs: number;
  json?: boolean;
}

const program = withKeyOptions(
  commandProgram(
    'simulate',
    'Sends realistic completion callbacks, signed as the gateway signs them, and reports the answers.',
    {
      ok: 'every delivery acknowledged',
      differences: 'a delivery refused (4xx); none left without an answer or with a 5xx (3)',
      interrupted: 'stopped with Ctrl-C, after the summary so far',
    },
  ).option(
    '--url <url>',
    'callback URL (default: the running npm start server on DATA_DIR, else http://127.0.0.1:$PORT/callback)',
    httpUrl('--url'),
  ),
  "for a local URL local mode's own key (CALLBACK_API_KEYS' first, else the saved dev key)",
)
  .option('--count <n>', 'deliveries, redeliveries included', positiveInteger('--count'), 100)
  .option('--concurrency <n>', 'requests in flight', positiveInteger('--concurrency'), 10)
  .option(
    '--duplicates <f>',
    'fraction redelivering an earlier callback',
    fraction('--duplicates'),
    0,
  )
  .option(
    '--conflicts <f>',
    'fraction reusing a reference, other content',
    fraction('--conflicts'),
    0,
  )
  .option('--no-hash', 'send "hash":"" (a gateway with hashing switched off)')
  .option('--utf8', 'non-ASCII as raw UTF-8 on the wire (default: \\u escapes, as hashed)')
  .option('--seed <text>', 'same seed, same callbacks (default: random, printed)')
  .option('--max-attempts <n>', 'attempts per delivery', positiveInteger('--max-attempts'), 5)
  .option(
    '--backoff-ms <n>',
    'first retry delay, doubling per attempt',
    positiveInteger('--backoff-ms'),
    200,
  )
  .option('--timeout-ms <n>', 'per attempt', positiveInteger('--timeout-ms'), 10_000)
  .option('--json', 'print the summary as JSON on stdout')
  .addHelpText(
    'after',
    `
Retries: no response, 408, 429 and 5xx, with exponential backoff and Retry-After; other 4xx are
final. Every failure is explained in one line. Ctrl-C prints the summary so far.`,
  )
  .action(simulate);

async function simulate(options: SimulateOptions): Promise<void> {
  const data = localData(process.env.DATA_DIR);
  const server = options.url ? undefined : await runningServer(data);
  const url =
    options.url ?? server?.url ?? `http://127.0.0.1:${process.env.PORT || '3000'}/callback`;
  const key = await resolveApiKey(options, 'simulate', async () =>
    isLoopbackUrl(url) ? localApiKey(data, server) : undefined,
  );
  if (!key) throw new UsageError(missingKey(url, server?.keySource));
  const seed = options.seed ?? randomBytes(4).toString('hex');
  const plan = planDeliveries(seededRandom(seed), options);

  // Draws only on a terminal: piped or captured output (CI, tests, `--json | jq`) stays clean.
  const bar = process.stderr.isTTY
    ? new SingleBar({
        format: '[{bar}] {value}/{total} {percentage}% {eta_formatted} s left, retries {retries}',
        clearOnComplete: true,
        stream: process.stderr,
      })
    : undefined;
  bar?.start(plan.deliveries.length, 0, { retries: 0 });
  const interrupt = new AbortController();
  let interruptedAt: number | undefined;
  process.on('SIGINT', () => {
    // tsx relays the terminal's Ctrl-C: a repeat within a second is the same one; a later one
    // ends at once.
    if (interruptedAt === undefined) interruptedAt = Date.now();
    else if (Date.now() - interruptedAt > 1_000) process.exit(exitCodes.interrupted);
    interrupt.abort();
  });
  const retry = { ...options, maxBackoffMs: 10_000 };
  const wire = options.utf8 ? 'utf8' : 'escaped';
  let retries = 0;
  const run = await runSimulation(plan, options.concurrency, interrupt.signal, async (planned) => {
    const body = callbackBody(planned.transaction, key, { hash: options.hash, wire });
    const result = await deliver(url, key, body, retry, () =>
      bar?.increment(0, { retries: ++retries }),
    );
    bar?.increment(1, { retries });
    return result;
  });
  bar?.stop();

  const summary = summarize(plan, run, { url, seed, concurrency: options.concurrency });
  process.stdout.write(
    options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary),
  );
  if (summary.interrupted) process.exit(exitCodes.interrupted);
  // Still failing after every attempt (no answer, 5xx) is a failure; a refusal is an answer.
  if (summary.failed > 0) process.exitCode = exitCodes.failed;
  else if (summary.rejected > 0) process.exitCode = exitCodes.differences;
}

function missingKey(url: string, serverKeys: 'environment' | 'generated' | undefined): string {
  const give = `--key-file <path> or ${apiKeyVariable}`;
  if (!isLoopbackUrl(url)) return `give the API key the receiver at this URL accepts: ${give}`;
  if (serverKeys === 'environment') {
    return `the running server takes its keys from its CALLBACK_API_KEYS: set CALLBACK_API_KEYS here too, or give ${give}`;
  }
  return `no key: give ${give}, set CALLBACK_API_KEYS, or start the server once (npm start) so it saves its dev key`;
}

withExamples(program, [
  'simulate --count 200 --duplicates 0.1',
  'simulate --count 50 --conflicts 0.05 --seed demo',
  'simulate --count 20 --json > summary.json',
]);

await runProgram(program, 'simulate');
