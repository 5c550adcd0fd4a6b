/**
 * Runs in a fresh Node 24 process (`--expose-gc`): loads one receiver bundle as Lambda would,
 * answers `BENCH_MEMORY_CALLBACKS` new callbacks, `BENCH_MEMORY_CONCURRENCY` at a time, each
 * with Lambda's context for a 10 s function (so each request's budget runs about 9.5 s), and
 * reports on file descriptor 3 the memory after a full collection at each checkpoint. Compiled
 * to plain JS before use, like the cold-start probe.
 */
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { getHeapSpaceStatistics } from 'node:v8';
import { lambdaContext } from '../../scripts/local/lambda-context.js';
import { apiGatewayEvent, benchKey, freshCallback } from '../support/deliveries.js';

type Handler = (event: unknown, context: unknown) => Promise<{ statusCode: number }>;

const bundle = process.env.BENCH_PROBE_BUNDLE ?? '';
const total = Number(process.env.BENCH_MEMORY_CALLBACKS);
const checkpoints = (process.env.BENCH_MEMORY_CHECKPOINTS ?? '').split(',').map(Number);
const concurrency = Number(process.env.BENCH_MEMORY_CONCURRENCY);
const exposedGc = (globalThis as { gc?: () => void }).gc;
if (!exposedGc) throw new Error('run with --expose-gc');
const gc = exposedGc;

const { handler } = (await import(pathToFileURL(bundle).href)) as { handler: Handler };
const statuses: Record<number, number> = {};
const readings: {
  callbacks: number;
  heapUsed: number;
  heapTotal: number;
  rss: number;
  /** Committed bytes per V8 heap space: which one grows. */
  spaces: Record<string, number>;
}[] = [];
let started = 0;
let answered = 0;

async function worker(): Promise<void> {
  while (started < total) {
    started += 1;
    const event = apiGatewayEvent(freshCallback(), { apiKey: benchKey });
    const { statusCode } = await handler(event, lambdaContext(`memory-${started}`, 10_000));
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    answered += 1;
    if (checkpoints.includes(answered)) {
      // Measured between requests: the in-flight ones are part of the load, as in production.
      gc();
      const { heapUsed, heapTotal, rss } = process.memoryUsage();
      const spaces = Object.fromEntries(
        getHeapSpaceStatistics().map((space) => [space.space_name, space.space_size]),
      );
      readings.push({ callbacks: answered, heapUsed, heapTotal, rss, spaces });
    }
  }
}

await Promise.all(Array.from({ length: concurrency }, worker));
writeSync(3, `${JSON.stringify({ statuses, readings })}\n`);
process.exit(0);
