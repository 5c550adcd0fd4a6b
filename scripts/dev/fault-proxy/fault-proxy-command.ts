/**
 * `npm run fault-proxy`: the proxy in front of a running engine or stand-in; point the function's
 * `AWS_ENDPOINT_URL_*` at the printed endpoint. Ctrl-C prints what was done to how many requests.
 */
import { Option } from '@commander-js/extra-typings';
import { fraction, httpUrl, positiveInteger, UsageError } from '../../cli/cli-errors.js';
import { commandProgram, runProgram } from '../../cli/command-program.js';
import { type FaultKind, faultKinds, faultPlan } from './fault-plan.js';
import { type Service, serverErrorTypes, startFaultProxy } from './fault-proxy.js';

const list = (value: string) => value.split(/\s*,\s*/).filter(Boolean);

function kinds(value: string): FaultKind[] {
  const unknown = list(value).filter((kind) => !(faultKinds as readonly string[]).includes(kind));
  if (unknown.length > 0) throw new UsageError(`unknown fault(s): ${unknown.join(', ')}`);
  return list(value) as FaultKind[];
}

const program = commandProgram('fault-proxy', 'Fails requests to an AWS service the way AWS can.', {
  ok: 'stopped with Ctrl-C, after printing what it did',
})
  .requiredOption('--upstream <url>', 'the service to forward to', httpUrl('--upstream'))
  .option('--port <n>', 'port to listen on (default: a free one)', positiveInteger('--port'))
  .option('--fraction <0..1>', 'share of requests to fail', fraction('--fraction'), 0.3)
  .option('--seed <n>', 'seed of the random choices (default: time-based, printed)', Number)
  .option('--faults <list>', `from ${faultKinds.join(', ')} (default: all but hang)`, kinds)
  .addOption(
    new Option('--service <name>', 'whose errors to write')
      .choices(Object.keys(serverErrorTypes) as Service[])
      .default('dynamodb'),
  )
  .option('--operations <list>', 'only these operations, e.g. PutItem,GetItem', list)
  .option(
    '--delay-ms <n>',
    'how long a delay fault holds a request',
    positiveInteger('--delay-ms'),
    1000,
  )
  .action(async (options) => {
    const { seed = Date.now() % 2 ** 31, faults: kinds } = options;
    const plan = faultPlan({ ...options, seed, kinds });
    const proxy = await startFaultProxy({ ...options, plan });
    console.log(`Fault proxy on ${proxy.endpoint} → ${options.upstream} (seed ${seed})`);
    process.once('SIGINT', async () => {
      console.log(JSON.stringify(proxy.stats(), null, 2));
      await proxy.stop();
    });
  });

await runProgram(program, 'fault-proxy');
