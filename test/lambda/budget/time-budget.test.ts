import { describe, expect, it } from 'vitest';
import { attempt } from '../../../lambda/budget/attempts.js';
import { isRetryable } from '../../../lambda/budget/retryable.js';
import {
  invocationBudget,
  TimeBudgetExhaustedError,
  timeBudget,
  unlimitedBudget,
  withinBudget,
} from '../../../lambda/budget/time-budget.js';

const throttled = () => Object.assign(new Error('slow down'), { name: 'ThrottlingException' });
const denied = () =>
  Object.assign(new Error('denied'), {
    name: 'AccessDeniedException',
    $metadata: { httpStatusCode: 400 },
  });

describe('the time budget', () => {
  it("is Lambda's remaining time less the margin, and unbounded without a Lambda context", () => {
    const budget = invocationBudget({ getRemainingTimeInMillis: () => 10_000 }, 500);
    expect(budget.remainingMs()).toBeGreaterThan(9_400);
    expect(budget.remainingMs()).toBeLessThanOrEqual(9_500);
    expect(invocationBudget({}, 500).remainingMs()).toBe(Number.POSITIVE_INFINITY);
  });

  it('never goes below zero, and a budget shorter than the margin is spent at once', async () => {
    const budget = timeBudget(300, 500);
    expect(budget.remainingMs()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(budget.signal.aborted).toBe(true);
    await expect(withinBudget(budget, Promise.resolve('late'))).rejects.toThrow(
      TimeBudgetExhaustedError,
    );
  });

  it('stops a wait when the budget runs out, and passes an answer that comes in time', async () => {
    await expect(withinBudget(timeBudget(50, 0), new Promise(() => {}))).rejects.toThrow(
      TimeBudgetExhaustedError,
    );
    await expect(withinBudget(timeBudget(1_000, 0), Promise.resolve('ok'))).resolves.toBe('ok');
  });
});

describe('attempts within the budget', () => {
  const options = { attemptTimeoutMs: 100, maxAttempts: 3, backoffMs: () => 0 };

  it('retries a retryable failure and returns the first success', async () => {
    let calls = 0;
    const result = await attempt(unlimitedBudget(), options, async () => {
      calls += 1;
      if (calls < 3) throw throttled();
      return 'stored';
    });
    expect([result, calls]).toEqual(['stored', 3]);
  });

  it('gives up after the last attempt with the last failure as the cause', async () => {
    let calls = 0;
    const failure = await attempt(unlimitedBudget(), options, async () => {
      calls += 1;
      throw throttled();
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TimeBudgetExhaustedError);
    expect((failure as Error).cause).toMatchObject({ name: 'ThrottlingException' });
    expect(calls).toBe(3);
  });

  it('does not retry a failure that will repeat', async () => {
    let calls = 0;
    const failure = attempt(unlimitedBudget(), options, async () => {
      calls += 1;
      throw denied();
    });
    await expect(failure).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(calls).toBe(1);
  });

  it('starts no attempt the budget cannot hold', async () => {
    let calls = 0;
    const failure = attempt(timeBudget(50, 0), options, async () => {
      calls += 1;
      return 'never';
    });
    await expect(failure).rejects.toThrow('No attempt could finish in the time left.');
    expect(calls).toBe(0);
  });

  it('aborts an attempt that outlives its timeout', async () => {
    let aborted = false;
    const failure = attempt(unlimitedBudget(), { ...options, maxAttempts: 1 }, (signal) => {
      signal.addEventListener('abort', () => {
        aborted = true;
      });
      return new Promise((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason)),
      );
    });
    await expect(failure).rejects.toThrow(TimeBudgetExhaustedError);
    expect(aborted).toBe(true);
  });
});

describe('which failures are retried', () => {
  it.each([
    ['throttling', true, throttled()],
    [
      'a 5xx by status',
      true,
      Object.assign(new Error('x'), { $metadata: { httpStatusCode: 502 } }),
    ],
    ['a server fault', true, Object.assign(new Error('x'), { $fault: 'server' })],
    ['a 429', true, Object.assign(new Error('x'), { $metadata: { httpStatusCode: 429 } })],
    ['a reset connection', true, Object.assign(new Error('x'), { code: 'ECONNRESET' })],
    ['a timeout', true, Object.assign(new Error('x'), { name: 'TimeoutError' })],
    ['access denied', false, denied()],
    ['a validation error', false, Object.assign(new Error('x'), { name: 'ValidationException' })],
    ['something not an Error', false, 'boom'],
  ])('%s: retried %s', (_name, retryable, error) => {
    expect(isRetryable(error)).toBe(retryable);
  });
});
