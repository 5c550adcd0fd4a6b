/**
 * Runs in a fresh Node 24 process: loads one bundle, answers one callback, reports when each
 * step finished on file descriptor 3 (stdout stays the handler's log stream) and exits. Times are
 * `performance.now()`, milliseconds since the process started. Compiled to plain JS before use,
 * so no TypeScript loader adds to what is measured.
 */
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { lambdaContext } from '../../scripts/local/lambda-context.js';

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number }>;

const started = performance.now();
const bundle = process.env.BENCH_PROBE_BUNDLE ?? '';
const event = JSON.parse(process.env.BENCH_PROBE_EVENT ?? '{}') as unknown;
const context = lambdaContext(`probe-${process.pid}`, 10_000);

const { handler } = (await import(pathToFileURL(bundle).href)) as { handler: Handler };
const loaded = performance.now();
const response = await handler(event, context);
const answered = performance.now();
// CPU time of the whole process (Node's own start included): steadier than the clock on a busy
// machine, where waiting for a core counts in the elapsed time but not here.
const { user, system } = process.cpuUsage();
const cpu = (user + system) / 1000;
const report = { started, loaded, answered, cpu, status: response.statusCode };
writeSync(3, `${JSON.stringify(report)}\n`);
process.exit(0);
