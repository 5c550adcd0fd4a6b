// A static import, not `await import()` on first use: the bundler cannot tree-shake a dynamic
// import, which kept the whole client package (29 KB against 14 KB) in every cold start's parse,
// and a deployed stack reads its keys from the secret on the first request anyway.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { attempt, oneAttemptPerCall } from '../budget/attempts.js';
import { type TimeBudget, timeBudget, withinBudget } from '../budget/time-budget.js';
import { limitDefaults, splitKeys } from '../config/config.js';
import { type AcceptedKey, acceptedKey, type KeyProvider } from './accepted-keys.js';

/** A rotation reaches every warm function within this time, without a redeploy. */
export const secretCacheMs = 5 * 60 * 1000;
/**
 * At most one fetch starts per this interval, whatever the request rate: while the secret
 * cannot be read, and for early refreshes asked for by unknown keys.
 */
export const minFetchIntervalMs = 5 * 1000;

export interface SecretKeysOptions {
  /** Per-attempt timeout and attempts of one fetch. @default `limitDefaults.secretsManager` */
  readonly timeoutMs?: number;
  readonly maxAttempts?: number;
  /** A client of the test's choosing; by default one is built on first use. */
  readonly client?: Pick<SecretsManagerClient, 'send'>;
  readonly now?: () => number;
}

/**
 * Keys held in a Secrets Manager secret: a plain string (one key, or several separated by
 * commas) or JSON `{"keys": ["...", "..."]}`.
 *
 * Once keys are known no request waits on Secrets Manager: a copy older than
 * {@link secretCacheMs} is still used while a refresh runs beside the requests, and if the
 * refresh fails the last good keys keep working. A request waits on a fetch only while no keys
 * are known, and then no longer than its own budget. Fetches are shared and at most one starts
 * per {@link minFetchIntervalMs}, so an outage of the secret, or a flood of unknown keys, cannot
 * turn into a flood of calls.
 */
export function secretKeys(secretId: string, options: SecretKeysOptions = {}): KeyProvider {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? limitDefaults.secretsManager.timeoutMs;
  const maxAttempts = options.maxAttempts ?? limitDefaults.secretsManager.maxAttempts;
  let client = options.client;
  let cached: { keys: readonly AcceptedKey[]; fetchedAt: number } | undefined;
  let inFlight: Promise<void> | undefined;
  let lastStartedAt = Number.NEGATIVE_INFINITY;
  /** Why the latest fetch failed; undefined once one succeeds. */
  let lastFailure: unknown;

  async function fetchKeys(): Promise<void> {
    client ??= new SecretsManagerClient(oneAttemptPerCall(timeoutMs));
    const sdk = client;
    // The fetch has its own budget: it may outlive the request that started it.
    const budget = timeBudget(maxAttempts * (timeoutMs + 100), 0);
    const output = await attempt(
      budget,
      { attemptTimeoutMs: timeoutMs, maxAttempts },
      (abortSignal) => sdk.send(new GetSecretValueCommand({ SecretId: secretId }), { abortSignal }),
    ).finally(budget.release);
    const keys = parseSecret(output.SecretString ?? '').map(acceptedKey);
    if (keys.length === 0) throw new Error('The secret holds no API keys');
    cached = { keys, fetchedAt: now() };
  }

  /** The fetch under way, a new one if the interval allows, else undefined. */
  function startFetch(): Promise<void> | undefined {
    if (inFlight) return inFlight;
    if (now() - lastStartedAt < minFetchIntervalMs) return undefined;
    lastStartedAt = now();
    inFlight = fetchKeys()
      .then(
        () => {
          lastFailure = undefined;
        },
        (error: unknown) => {
          lastFailure = error;
        },
      )
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  /** Waits for `fetch` within the budget; throws when no fetch could run or it failed. */
  async function settle(fetch: Promise<void> | undefined, budget: TimeBudget): Promise<void> {
    if (fetch) await withinBudget(budget, fetch);
    if (lastFailure !== undefined) {
      throw new Error('The API keys could not be read', { cause: lastFailure });
    }
  }

  function held(): readonly AcceptedKey[] {
    if (!cached) throw new Error('The API keys could not be read', { cause: lastFailure });
    return cached.keys;
  }

  return {
    async keys(budget) {
      if (cached) {
        if (now() - cached.fetchedAt >= secretCacheMs) void startFetch();
        return cached.keys;
      }
      await settle(startFetch(), budget);
      return held();
    },
    async refreshed(budget) {
      await settle(startFetch(), budget);
      return held();
    },
  };
}

/** The keys in a secret's string value. */
export function parseSecret(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('{')) {
    const parsed: unknown = JSON.parse(trimmed);
    const keys = (parsed as { keys?: unknown }).keys;
    if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) {
      throw new Error('Secret JSON must be {"keys": ["..."]}');
    }
    return keys.map((key) => key.trim()).filter((key) => key !== '');
  }
  return splitKeys(trimmed);
}
