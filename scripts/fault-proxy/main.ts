/**
 * The fault proxy from the command line, in front of a running engine:
 *
 *   npx tsx scripts/fault-proxy/main.ts --upstream http://127.0.0.1:8000 --fraction 0.3 --seed 7
 *
 * then point the function at it: `AWS_ENDPOINT_URL_DYNAMODB=<printed endpoint>` (with
 * `--service secretsmanager` or `eventbridge`: `AWS_ENDPOINT_URL_SECRETS_MANAGER`,
 * `AWS_ENDPOINT_URL_EVENTBRIDGE`). Ctrl-C prints
 * what was done to how many requests.
 */
import { parseArgs } from 'node:util';
import { defaultFaultKinds, type FaultKind, faultKinds, faultPlan } from './fault-plan.js';
import { startFaultProxy } from './fault-proxy.js';
import { type Service, services } from './service-error.js';

const usage = `Usage: tsx scripts/fault-proxy/main.ts --upstream <url> [options]
  --upstream <url>      the DynamoDB engine to forward to (required)
  --port <n>            port to listen on (default: a free one)
  --fraction <0..1>     share of requests to fail (default 0.3)
  --seed <n>            seed of the random choices (default: time-based, printed)
  --faults <list>       comma-separated, from ${faultKinds.join(', ')}
                        (default: ${defaultFaultKinds.join(', ')})
  --service <name>      whose errors to write: ${Object.keys(services).join(', ')} (default dynamodb)
  --operations <list>   only these operations, e.g. PutItem,GetItem (default: all)
  --delay-ms <n>        how long a delay fault holds a request (default 1000)`;

const { values } = parseArgs({
  options: {
    upstream: { type: 'string' },
    port: { type: 'string' },
    fraction: { type: 'string', default: '0.3' },
    seed: { type: 'string' },
    faults: { type: 'string' },
    operations: { type: 'string' },
    service: { type: 'string', default: 'dynamodb' },
    'delay-ms': { type: 'string', default: '1000' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help || !values.upstream) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}

const list = (text: string | undefined) =>
  text
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const kinds = list(values.faults);
const unknown = kinds?.filter((kind) => !(faultKinds as readonly string[]).includes(kind));
if (unknown && unknown.length > 0) {
  console.error(`Unknown fault(s): ${unknown.join(', ')}\n${usage}`);
  process.exit(2);
}
if (!(values.service in services)) {
  console.error(`Unknown service: ${values.service}\n${usage}`);
  process.exit(2);
}
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const operations = list(values.operations);

const proxy = await startFaultProxy({
  upstream: values.upstream,
  service: values.service as Service,
  delayMs: Number(values['delay-ms']),
  ...(values.port ? { port: Number(values.port) } : {}),
  plan: faultPlan({
    fraction: Number(values.fraction),
    seed,
    ...(kinds ? { kinds: kinds as FaultKind[] } : {}),
    ...(operations ? { operations } : {}),
  }),
});
console.log(`Fault proxy on ${proxy.endpoint} → ${values.upstream} (seed ${seed})`);

process.once('SIGINT', async () => {
  console.log(JSON.stringify(proxy.stats(), null, 2));
  await proxy.stop();
  process.exit(0);
});
