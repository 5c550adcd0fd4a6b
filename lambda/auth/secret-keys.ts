import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { splitKeys } from '../config/config.js';
import { type AcceptedKey, acceptedKey, type KeyProvider } from './accepted-keys.js';

/** A rotation reaches every warm function within this time, without a redeploy. */
export const secretCacheMs = 5 * 60 * 1000;
const retryFailedRefreshMs = 60 * 1000;

/**
 * Keys held in a Secrets Manager secret: a plain string (one key, or several separated by
 * commas) or JSON `{"keys": ["...", "..."]}`. Fetched on first use and again once the cached copy
 * is older than {@link secretCacheMs}; concurrent callers share one fetch. If a refresh fails, the
 * keys already held keep working until the next attempt, since the last good copy is a better
 * answer than refusing every callback.
 */
export function secretKeys(
  secretId: string,
  options: { client?: SecretsManagerClient; now?: () => number } = {},
): KeyProvider {
  const now = options.now ?? Date.now;
  let cached: { keys: readonly AcceptedKey[]; fetchedAt: number } | undefined;
  let inFlight: Promise<readonly AcceptedKey[]> | undefined;

  async function fetchKeys(): Promise<readonly AcceptedKey[]> {
    // Loaded on first use: deployments that configure keys in the environment never pay for it.
    const { GetSecretValueCommand, SecretsManagerClient } = await import(
      '@aws-sdk/client-secrets-manager'
    );
    const client = options.client ?? new SecretsManagerClient({});
    const output = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    const keys = parseSecret(output.SecretString ?? '').map(acceptedKey);
    if (keys.length === 0) throw new Error(`Secret ${secretId} holds no API keys`);
    cached = { keys, fetchedAt: now() };
    return keys;
  }

  return {
    async keys() {
      if (cached && now() - cached.fetchedAt < secretCacheMs) return cached.keys;
      inFlight ??= fetchKeys().finally(() => {
        inFlight = undefined;
      });
      try {
        return await inFlight;
      } catch (error) {
        if (!cached) throw error;
        // Try again in a minute rather than on every request while Secrets Manager is failing.
        cached = { keys: cached.keys, fetchedAt: now() - secretCacheMs + retryFailedRefreshMs };
        return cached.keys;
      }
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
