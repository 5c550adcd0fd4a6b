/**
 * `npm run simulate`: the payment gateway's side. Builds realistic callbacks from a seed, signs
 * them as the gateway does, POSTs them with retries, and prints what the receiver answered.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { fraction, positiveInteger, reportFailure, UsageError } from '../shared/cli-errors.js';
import { localData } from '../shared/local-data.js';
import { isLoopbackUrl, localApiKey, runningServer } from '../shared/local-target.js';
import { planDeliveries } from './delivery-plan.js';
import { progressBar } from './progress-bar.js';
import { runSimulation } from './run-simulation.js';
import { seededRandom } from './seeded-random.js';
import { formatSummary, summarize } from './summary.js';

const usage = `Usage: npm run simulate -- [options]

Sends realistic completion callbacks, signed as the gateway signs them, and reports the answers.

  --url <url>             callback URL (default: the running npm start server, else
                          http://127.0.0.1:$PORT/callback, PORT default 3000)
  --key <key>             x-api-key and hash salt (default for a local URL: CALLBACK_API_KEYS'
                          first key, else the dev key npm start saved in DATA_DIR)
  --count <n>             deliveries to send, redeliveries included (default 100)
  --concurrency <n>       requests in flight (default 10)
  --duplicates <f>        fraction of deliveries that redeliver an earlier callback (default 0)
  --conflicts <f>         fraction that reuse an earlier reference with other content (default 0)
  --no-hash               send "hash":"" (a gateway with hashing switched off)
  --utf8                  non-ASCII as raw UTF-8 on the wire (default: \\u escapes, as hashed)
  --seed <text>           same seed, same callbacks (default: random, printed)
  --max-attempts <n>      attempts per delivery, first included (default 5)
  --backoff-ms <n>        first retry delay ceiling, doubling per attempt (default 200)
  --timeout-ms <n>        per attempt (default 10000)
  --json                  print the summary as JSON on stdout
  -h, --help

Retries: no response, 408, 429 and 5xx, with exponential backoff, full jitter and Retry-After.
Other 4xx are final. Exit code 1 when any delivery was rejected or still failing at the end.
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    allowNegative: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      count: { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '10' },
      duplicates: { type: 'string', default: '0' },
      conflicts: { type: 'string', default: '0' },
      hash: { type: 'boolean', default: true },
      utf8: { type: 'boolean', default: false },
      seed: { type: 'string' },
      'max-attempts': { type: 'string', default: '5' },
      'backoff-ms': { type: 'string', default: '200' },
      'timeout-ms': { type: 'string', default: '10000' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return;
  }
  const data = localData(process.env.DATA_DIR);
  const server = values.url ? undefined : await runningServer(data);
  const url =
    values.url ?? server?.url ?? `http://127.0.0.1:${process.env.PORT || '3000'}/callback`;
  const key = values.key ?? (isLoopbackUrl(url) ? await localApiKey(data) : undefined);
  if (!key) {
    throw new UsageError(
      isLoopbackUrl(url)
        ? 'no key: pass --key, set CALLBACK_API_KEYS, or start the server once (npm start) so it saves its dev key'
        : 'pass --key with the API key the receiver at this URL accepts',
    );
  }
  const count = positiveInteger('--count', values.count);
  const concurrency = positiveInteger('--concurrency', values.concurrency);
  const seed = values.seed ?? randomBytes(4).toString('hex');
  const plan = planDeliveries(seededRandom(seed), {
    count,
    duplicates: fraction('--duplicates', values.duplicates),
    conflicts: fraction('--conflicts', values.conflicts),
  });

  const bar = progressBar(count);
  const run = await runSimulation(plan, {
    url,
    key,
    concurrency,
    hash: values.hash,
    wire: values.utf8 ? 'utf8' : 'escaped',
    retry: {
      maxAttempts: positiveInteger('--max-attempts', values['max-attempts']),
      backoffMs: positiveInteger('--backoff-ms', values['backoff-ms']),
      maxBackoffMs: 10_000,
      timeoutMs: positiveInteger('--timeout-ms', values['timeout-ms']),
    },
    onProgress: ({ done, retries }) => bar.update(done, retries),
  });
  bar.finish();

  const summary = summarize(plan, run, { url, seed, concurrency });
  process.stdout.write(
    values.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary),
  );
  if (summary.rejected > 0 || summary.failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => reportFailure('simulate', error));
