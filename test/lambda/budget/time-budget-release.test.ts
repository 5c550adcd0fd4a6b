import { describe, expect, it } from 'vitest';
import { attempt, withAttemptSignal } from '../../../lambda/budget/attempts.js';
import { timeBudget } from '../../../lambda/budget/time-budget.js';
import { StoreUnavailableError } from '../../../lambda/callback/errors.js';
import type { TransactionStore } from '../../../lambda/storage/transaction-store.js';
import { callbackEvent, lambdaContext, signed, transaction } from '../../support/fixtures.js';
import { timerTracker } from '../../support/live-timers.js';
import { MemoryTransactionStore } from '../../support/memory-transaction-store.js';
import { receiverWith } from '../../support/receiver.js';

/**
 * Nothing a request starts may outlive its answer: a timer still pending keeps its signal, the
 * listeners on it and everything they hold alive, so under load memory grows with the request
 * rate times the timeout instead of staying flat.
 */
describe('per-request timers are released when the answer is sent', () => {
  const timers = timerTracker();

  it.each([
    ['a recorded callback (204)', () => callbackEvent(signed(transaction())), 204],
    [
      'an unknown key (401)',
      () => callbackEvent(signed(transaction()), { headers: { 'x-api-key': 'nope' } }),
      401,
    ],
    ['an invalid body (400)', () => callbackEvent('{'), 400],
  ] as const)('%s', async (_name, event, status) => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const request = event();
    timers.start();

    const response = await invoke(request, lambdaContext());

    expect(response.statusCode).toBe(status);
    expect(await timers.stillPending()).toEqual([]);
  });

  it('a store that fails (503)', async () => {
    const failing: TransactionStore = {
      putIfAbsent: async () => {
        throw new StoreUnavailableError({ cause: new Error('down') });
      },
      get: async () => undefined,
    } as unknown as TransactionStore;
    const invoke = receiverWith(failing);
    const request = callbackEvent(signed(transaction()));
    timers.start();

    const response = await invoke(request, lambdaContext());

    expect(response.statusCode).toBe(503);
    expect(await timers.stillPending()).toEqual([]);
  });

  it('attempts that succeed, and attempts that fail, leave no timer behind', async () => {
    const budget = timeBudget(10_000, 0);
    timers.start();

    await attempt(
      budget,
      { attemptTimeoutMs: 2_000, maxAttempts: 2, backoffMs: () => 0 },
      async () => 'ok',
    );
    await attempt(
      budget,
      { attemptTimeoutMs: 2_000, maxAttempts: 2, backoffMs: () => 0 },
      async () => {
        throw Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
      },
    ).catch(() => undefined);
    budget.release();

    expect(await timers.stillPending()).toEqual([]);
  });

  it('an attempt still aborts at its own timeout', async () => {
    const budget = timeBudget(10_000, 0);
    const failure = await attempt(
      budget,
      { attemptTimeoutMs: 20, maxAttempts: 1 },
      (signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    ).catch((error: unknown) => error);
    budget.release();

    expect((failure as Error).cause).toMatchObject({ name: 'TimeoutError' });
  });

  it("an attempt aborts when the budget's time is up, before its own timeout", async () => {
    const budget = timeBudget(20, 0);
    const started = Date.now();
    const reason = await withAttemptSignal(
      budget,
      5_000,
      (signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    ).catch((error: unknown) => error);

    expect(reason).toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('an attempt started on a spent budget is aborted at once', async () => {
    const budget = timeBudget(0, 0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const aborted = await withAttemptSignal(budget, 5_000, async (signal) => signal.aborted);
    expect(aborted).toBe(true);
  });
});
