import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { benchKey } from '../support/deliveries.js';
import { createBenchTables, type Engine, localAwsEnvironment } from '../support/engines.js';
import { cleanEnvironment, node24 } from '../support/node24.js';
import { bundle } from './cold-start.js';

export interface MemoryOptions {
  /**
   * `memory`: the receiver over a store that keeps nothing (bench/measure/memory-subject.ts),
   * fast, so many requests overlap; an engine: the deployed bundle writing to it.
   */
  readonly engine: Engine | 'memory';
  /** Where memory is read, in callbacks answered; the last is the run's length. */
  readonly checkpoints: readonly number[];
  readonly concurrency: number;
  /** Bundles built elsewhere (another commit's receiver), run the same way after ours. */
  readonly extraBundles?: readonly { readonly name: string; readonly file: string }[];
}

interface Reading {
  readonly callbacks: number;
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly rss: number;
}

/**
 * The young generation held at one size (16 MB semi-spaces, V8's usual maximum here). Left to
 * itself V8 grows it with the allocation rate, from 8 to 32 MB committed over the first thousands
 * of callbacks: a one-time warm-up that says nothing about what requests retain, yet would show
 * as growth between the checkpoints. Heap used and old space are reported besides.
 */
const youngGeneration = ['--min-semi-space-size=16', '--max-semi-space-size=16'];

export type MemoryResult = Awaited<ReturnType<typeof measureMemory>>[number];

/**
 * The receiver in a fresh process, answering new callbacks (against a store that keeps nothing,
 * or an engine in another process, so only the receiver's memory is counted), with memory read
 * after a full collection at each checkpoint. Per-request state that outlives its answer (a timer and
 * its signal) shows as growth between the checkpoints; flat memory is a ratio near 1.
 */
export async function measureMemory(workDir: string, options: MemoryOptions) {
  const probe = await bundle('bench/measure/memory-probe.ts', workDir);
  const { engine } = options;
  const ours = await bundle(
    engine === 'memory' ? 'bench/measure/memory-subject.ts' : 'lambda/receiver.ts',
    workDir,
  );
  const tables = engine === 'memory' ? undefined : await createBenchTables(engine.endpoint);
  const env = {
    ...localAwsEnvironment,
    ...(engine === 'memory' ? {} : { AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint }),
    TABLE_NAME: tables?.ours ?? 'kept-nowhere',
    REFUSALS_TABLE_NAME: tables?.refusals ?? 'kept-nowhere',
    CALLBACK_API_KEYS: benchKey,
    POWERTOOLS_LOG_LEVEL: 'INFO',
    BENCH_MEMORY_CALLBACKS: String(Math.max(...options.checkpoints)),
    BENCH_MEMORY_CHECKPOINTS: options.checkpoints.join(','),
    BENCH_MEMORY_CONCURRENCY: String(options.concurrency),
  };
  const subjects = [{ name: 'ours', file: ours.file }, ...(options.extraBundles ?? [])];
  const results = [];
  for (const subject of subjects) {
    const child = spawn(node24(), ['--expose-gc', ...youngGeneration, probe.file], {
      env: cleanEnvironment({ ...env, BENCH_PROBE_BUNDLE: subject.file }),
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    const [report, errors, [code]] = await Promise.all([
      text(child.stdio[3] as Readable),
      text(child.stderr as Readable),
      once(child, 'close'),
    ]);
    if (code !== 0) {
      throw new Error(
        `memory probe for ${subject.name} exited with ${code}:\n${errors.slice(-4_000)}`,
      );
    }
    const { statuses, readings } = JSON.parse(report) as {
      statuses: Record<string, number>;
      readings: Reading[];
    };
    results.push({ name: subject.name, statuses, readings });
  }
  return results;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/**
 * Memory after a full collection at each checkpoint, and the last reading over the first: flat
 * memory is a ratio near 1 (the target: at most 1.10 for the committed heap and RSS).
 */
export function memoryTable(results: readonly MemoryResult[]): string {
  const lines = [
    '| Receiver | Callbacks answered | Heap used (MB) | Heap committed (MB) | RSS (MB) | Statuses |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const { name, readings, statuses } of results) {
    const answers = Object.entries(statuses)
      .map(([status, count]) => `${count} × ${status}`)
      .join(', ');
    for (const reading of readings) {
      lines.push(
        `| ${name} | ${reading.callbacks.toLocaleString('en-US')} | ${mb(reading.heapUsed)} | ` +
          `${mb(reading.heapTotal)} | ${mb(reading.rss)} | ${answers} |`,
      );
    }
    const [first, last] = [readings[0], readings.at(-1)];
    if (first && last && first !== last) {
      const ratio = (value: (reading: Reading) => number) =>
        `${(value(last) / value(first)).toFixed(2)}×`;
      lines.push(
        `| ${name}, last / first | | ${ratio((r) => r.heapUsed)} | ` +
          `${ratio((r) => r.heapTotal)} | ${ratio((r) => r.rss)} | target ≤ 1.10× |`,
      );
    }
  }
  return lines.join('\n');
}
