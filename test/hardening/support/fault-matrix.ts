import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, vi } from 'vitest';
import type { KeyProvider } from '../../../lambda/auth/accepted-keys.js';
import type { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import type { Decision } from '../../../scripts/dev/fault-proxy/fault-plan.js';
import {
  type RunningFaultProxy,
  type Service,
  startFaultProxy,
} from '../../../scripts/dev/fault-proxy/fault-proxy.js';
import { freePort } from '../../../scripts/local/free-port.js';
import { stubAwsEnvironment } from '../../support/engines.js';
import { lambdaContext } from '../../support/fixtures.js';
import { receiverWith } from '../../support/receiver.js';

/**
 * The fault matrix's shared terms (one test file per dependency: fault-matrix-*.test.ts): each
 * way a dependency can fail, a Lambda-like context whose remaining time runs down, the budget and
 * timeouts every cell is held to, and the table of figures each file prints for
 * docs/failure-handling.md.
 */

/** Lambda's remaining time at the start of each invocation, and what the function keeps back. */
export const remainingMs = 3_000;
export const marginMs = 500;
/** Per-attempt timeout of every client here; the proxy's slow answer comes after it. */
export const attemptTimeoutMs = 500;
const slowAnswerMs = 1_000;

export type Fault = 'hang' | 'delay' | 'refused' | 'server-error' | 'throttle';
export const faults: readonly Fault[] = ['hang', 'delay', 'refused', 'server-error', 'throttle'];
export const faultNames: Record<Fault, string> = {
  hang: 'accepts, never answers',
  delay: `answers after the attempt timeout (${slowAnswerMs} ms)`,
  refused: 'connection refused',
  'server-error': '500',
  throttle: 'throttling',
};

/** A context whose `getRemainingTimeInMillis` counts down from `ms`, as Lambda's does. */
export function runningDown(ms: number): Context {
  const deadline = Date.now() + ms;
  return { ...lambdaContext(), getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}

export interface Row {
  readonly dependency: string;
  readonly fault: string;
  readonly answer: string;
  readonly retryAfter: string;
  readonly maxMs: number;
  readonly effect: string;
}

/**
 * The rows of this file's part of the matrix, printed as a Markdown table after its tests; the
 * AWS environment (region, credentials) is stubbed for them meanwhile.
 */
export function collectRows(): Row[] {
  const rows: Row[] = [];
  beforeAll(stubAwsEnvironment);
  afterAll(() => {
    vi.unstubAllEnvs();
    const lines = [
      '| dependency | fault | answer | Retry-After | answer time (max) | stored / published |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows.map(
        (row) =>
          `| ${row.dependency} | ${row.fault} | ${row.answer} | ${row.retryAfter} | ${row.maxMs} ms | ${row.effect} |`,
      ),
    ];
    console.log(
      `Fault matrix: ${remainingMs} ms left at the start of each invocation, ${marginMs} ms margin, ${attemptTimeoutMs} ms per attempt\n${lines.join('\n')}`,
    );
  });
  return rows;
}

/** A proxy applying `fault` (switchable to `pass`), or for `refused` a port nobody listens on. */
export async function endpointWith(
  fault: Fault,
  upstream: string,
  service: Service,
): Promise<{ endpoint: string; proxy?: RunningFaultProxy; heal(): void }> {
  if (fault === 'refused') {
    return { endpoint: `http://127.0.0.1:${await freePort()}`, heal: () => undefined };
  }
  let decision: Decision = fault;
  const proxy = await startFaultProxy({
    upstream,
    service,
    delayMs: slowAnswerMs,
    plan: () => decision,
  });
  return { endpoint: proxy.endpoint, proxy, heal: () => (decision = 'pass') };
}

export async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: Math.round(performance.now() - started) };
}

/** The receiver with the matrix's margin, around `keys` and `store`. */
export const receiver = (keys: KeyProvider, store: DynamoDbTransactionStore) =>
  receiverWith(store, { keys, timeBudgetMarginMs: marginMs });

export const storeAttempts = { attemptTimeoutMs, maxAttempts: 3 };
