import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it, vi } from 'vitest';
import { findKey } from '../../../lambda/auth/accepted-keys.js';
import {
  minFetchIntervalMs,
  parseSecret,
  secretCacheMs,
  secretKeys,
} from '../../../lambda/auth/secret-keys.js';
import { timeBudget, unlimitedBudget } from '../../../lambda/budget/time-budget.js';
import { timerTracker } from '../../support/live-timers.js';

/**
 * An SDK client double for the provider's cache logic: Secrets Manager cannot be run locally, so
 * its answers are scripted (the fault matrix covers the network side through the fault proxy).
 * `'hang'` never answers unless aborted.
 */
function scriptedClient(answers: Array<string | Error | 'hang'>) {
  const calls: unknown[] = [];
  const client = {
    send: async (command: unknown, options?: { abortSignal?: AbortSignal }) => {
      calls.push(command);
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (answer === 'hang') {
        return new Promise<never>((_resolve, reject) =>
          options?.abortSignal?.addEventListener('abort', () =>
            reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
          ),
        );
      }
      if (answer instanceof Error) throw answer;
      return { SecretString: answer };
    },
  } as unknown as SecretsManagerClient;
  return { client, calls };
}

/** A provider over scripted answers, on a clock the test moves with `at(ms)`. */
function scriptedProvider(answers: Array<string | Error | 'hang'>) {
  let now = 0;
  const { client, calls } = scriptedClient(answers);
  const provider = secretKeys('s', { client, now: () => now });
  const at = (ms: number) => {
    now = ms;
  };
  return { provider, calls, at };
}

const accessDenied = () => Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
const unlimited = unlimitedBudget();

describe('keys from Secrets Manager', () => {
  it('reads a plain string or JSON {"keys":[...]}', () => {
    expect(parseSecret(' only-key ')).toEqual(['only-key']);
    expect(parseSecret('{"keys":["a"," b "]}')).toEqual(['a', 'b']);
    expect(() => parseSecret('{"key":"a"}')).toThrow('{"keys"');
  });

  it('fetches once for concurrent first requests and serves the cache while it is fresh', async () => {
    const { provider, calls, at } = scriptedProvider(['old-key', '{"keys":["old-key","new-key"]}']);
    await Promise.all([provider.keys(unlimited), provider.keys(unlimited)]);
    expect(calls).toHaveLength(1);
    at(secretCacheMs - 1);
    expect(findKey(await provider.keys(unlimited), 'new-key')).toBeUndefined();
    expect(calls).toHaveLength(1);
  });

  it('leaves no timer of a fetch (its budget, its attempts) pending once it is done', async () => {
    const { provider, at } = scriptedProvider(['old-key', 'new-key']);
    await provider.keys(unlimited); // the SDK module is loaded by the first fetch
    const timers = timerTracker();
    at(minFetchIntervalMs);
    timers.start();

    const keys = await provider.refreshed?.(unlimited);

    expect(findKey(keys ?? [], 'new-key')).toBeDefined();
    expect(await timers.stillPending()).toEqual([]);
  });

  it('answers from the stale cache at once and refreshes beside the request', async () => {
    const { provider, calls, at } = scriptedProvider(['old-key', '{"keys":["old-key","new-key"]}']);
    await provider.keys(unlimited);
    at(secretCacheMs);
    // The stale copy comes back without waiting; the refresh runs beside the request.
    expect(findKey(await provider.keys(unlimited), 'new-key')).toBeUndefined();
    await vi.waitFor(async () => {
      expect(findKey(await provider.keys(unlimited), 'new-key')).toBeDefined();
    });
    expect(calls).toHaveLength(2);
  });

  it('keeps the last good keys when a refresh fails', async () => {
    const { provider, calls, at } = scriptedProvider(['k', accessDenied()]);
    await provider.keys(unlimited);
    at(secretCacheMs + 1);
    expect(findKey(await provider.keys(unlimited), 'k')).toBeDefined();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(findKey(await provider.keys(unlimited), 'k')).toBeDefined();
  });

  it('makes at most one fetch per interval while no keys are known, whatever the request rate', async () => {
    const { provider, calls, at } = scriptedProvider([accessDenied()]);
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => provider.keys(unlimited)),
    );
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
    expect(calls).toHaveLength(1);
    at(minFetchIntervalMs - 1);
    await expect(provider.keys(unlimited)).rejects.toThrow('could not be read');
    expect(calls).toHaveLength(1);
    at(minFetchIntervalMs);
    await expect(provider.keys(unlimited)).rejects.toThrow('could not be read');
    expect(calls).toHaveLength(2);
  });

  it('refreshes early, once per interval, for a key it does not hold', async () => {
    const { provider, calls, at } = scriptedProvider(['old-key', 'old-key,new-key']);
    await provider.keys(unlimited);
    at(minFetchIntervalMs);
    expect(findKey((await provider.refreshed?.(unlimited)) ?? [], 'new-key')).toBeDefined();
    expect(calls).toHaveLength(2);
    // A second unknown key inside the interval: no new fetch, the held keys decide.
    expect(findKey((await provider.refreshed?.(unlimited)) ?? [], 'other')).toBeUndefined();
    expect(calls).toHaveLength(2);
  });

  it('stops waiting for a hanging first fetch when the request budget runs out', async () => {
    const { client } = scriptedClient(['hang']);
    const provider = secretKeys('s', { client, timeoutMs: 5_000, maxAttempts: 1 });
    const started = Date.now();
    await expect(provider.keys(timeBudget(200, 0))).rejects.toThrow(/budget/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('a secret that holds no key', () => {
  it.each([
    ['an empty key list', { SecretString: '{"keys":[]}' }],
    ['a binary secret with no string', { SecretBinary: new Uint8Array([1]) }],
  ])('is refused as unreadable keys when it is %s', async (_name, answer) => {
    const client = { send: async () => answer } as unknown as SecretsManagerClient;
    const failure = await secretKeys('s', { client })
      .keys(unlimited)
      .catch((error: unknown) => error);

    expect(failure).toMatchObject({
      message: 'The API keys could not be read',
      cause: { message: 'The secret holds no API keys' },
    });
  });
});
