import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sections } from '../../bench/report.js';
import type { BenchmarkResults } from '../../bench/run.js';
import { node24, repositoryRoot } from '../../bench/support/node24.js';
import { engineEndpoint, engines } from '../support/engines.js';

/**
 * The benchmark's smoke mode, end to end, so the scripts keep working: it must produce every row
 * of the table, for both receivers. Timings are not checked: a slow CI machine is not a failure.
 */
describe('npm run bench:smoke', () => {
  let outDir: string;
  let results: BenchmarkResults;
  let markdown: string;
  let exitCode: number | null;
  let output = '';

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
    const child = spawn(node24(), ['--import', 'tsx', 'bench/run.ts', '--smoke', '--out', outDir], {
      cwd: repositoryRoot,
      // The run's DynamoDB Local, when it has one, instead of a second JVM.
      env: engines.includes('dynamodb-local')
        ? { ...process.env, BENCH_DYNAMODB_LOCAL_ENDPOINT: engineEndpoint('dynamodb-local') }
        : process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
    });
    [exitCode] = (await once(child, 'exit')) as [number | null];
    if (exitCode === 0) {
      results = JSON.parse(await readFile(join(outDir, 'latest.json'), 'utf8')) as BenchmarkResults;
      markdown = await readFile(join(outDir, 'latest.md'), 'utf8');
    }
  }, 120_000);

  afterAll(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  it('finishes and writes the table and the JSON where --out says', async () => {
    expect(exitCode, output).toBe(0);
    expect(markdown).toMatch(/^# Benchmark results\n\n\| Metric \| Ours \| Baseline \|/);
    expect(results.mode).toBe('smoke');
  });

  it('has a row for every delivery on both engines, every CPU case, cold start and load', () => {
    const metrics = results.rows.map((row) => `${row.section} / ${row.metric}`);
    for (const engine of ['DynamoDB Local', 'dynalite']) {
      for (const delivery of [
        'new callback',
        'identical duplicate',
        'conflict (same reference, other content)',
        'the conflicting delivery again',
        'the first content again, after the conflicts',
      ]) {
        expect(metrics).toContain(`DynamoDB requests per callback / ${delivery}, ${engine}`);
      }
    }
    for (const kind of ['new', 'duplicate', 'bad hash', 'unauthorized']) {
      expect(metrics).toContain(`Handler CPU per callback / ${kind}, median`);
      expect(metrics).toContain(`Handler CPU per callback / ${kind}, p99`);
    }
    for (const kind of ['new', 'duplicate']) {
      expect(metrics).toContain(`Handler CPU per callback / ${kind}, SDK + DynamoDB Local, median`);
    }
    expect(metrics).toEqual(
      expect.arrayContaining([
        'Cold start / bundle size, minified as deployed',
        'Cold start / process start to first answer, median',
        'End to end / throughput',
        'End to end / errors (non-2xx, timeouts, connection errors)',
      ]),
    );
    expect(new Set(results.rows.map((row) => row.section))).toEqual(new Set(sections));
  });

  it("reads the receiver's memory at each checkpoint, every callback answered 204", () => {
    const [ours] = results.measurements.memory;
    expect(ours?.readings.map((reading) => reading.callbacks)).toEqual([20, 100]);
    expect(ours?.statuses).toEqual({ 204: 100 });
    expect(markdown).toContain('| ours, last / first |');
  });

  it('measures both receivers (and the floor) on every row, and prints each row', () => {
    for (const row of results.rows) {
      expect(Number.isFinite(row.ours) && Number.isFinite(row.baseline), row.metric).toBe(true);
      if (row.section === 'Cold start') expect(row.floor, row.metric).toBeGreaterThan(0);
      expect(markdown).toContain(`| ${row.metric} (${row.unit}) |`);
    }
    expect(output).toContain('| Metric | Ours | Baseline |');
  });

  it('gives new and duplicate deliveries the same outcome in both receivers', () => {
    const statuses = results.measurements.requestCounts
      .filter((count) => count.delivery === 'new' || count.delivery === 'duplicate')
      .map((count) => count.status);
    expect(new Set(statuses)).toEqual(new Set([204]));
    const expected = { new: 204, duplicate: 204, 'bad hash': 403, unauthorized: 401 };
    for (const result of results.measurements.cpu) {
      expect(result.statuses, `${result.subject} ${result.case}`).toEqual([expected[result.case]]);
    }
  });

  it('keeps a new refused body with three writes, a repeat with one, and nothing unauthenticated', () => {
    const ours = results.measurements.requestCounts.filter((count) => count.subject === 'ours');
    // New: the repeat's condition fails, a slot of the minute's bound is taken, the body kept.
    const kept = ['UpdateItem', 'UpdateItem', 'UpdateItem'];
    const expected: Record<string, [number, string[]]> = {
      'wrong key': [401, []],
      'invalid (~330 B)': [422, kept],
      'invalid again': [422, ['UpdateItem']],
      'text/plain': [415, kept],
      'invalid (60 KiB)': [422, kept],
      '70 KiB body': [413, kept],
    };
    for (const [delivery, outcome] of Object.entries(expected)) {
      for (const count of ours.filter((candidate) => candidate.delivery === delivery)) {
        expect([count.status, count.commands], `${count.engine} ${delivery}`).toEqual(outcome);
      }
    }
    expect(ours.filter((count) => count.delivery in expected)).toHaveLength(12);
  });
});
