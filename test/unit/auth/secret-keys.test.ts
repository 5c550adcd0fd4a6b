import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { describe, expect, it } from 'vitest';
import { findKey } from '../../../lambda/auth/accepted-keys.js';
import { parseSecret, secretCacheMs, secretKeys } from '../../../lambda/auth/secret-keys.js';

/** An SDK client double: Secrets Manager cannot be run locally, so its answers are scripted. */
function scriptedClient(answers: Array<string | Error>) {
  const calls: unknown[] = [];
  const client = {
    send: async (command: unknown) => {
      calls.push(command);
      const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return { SecretString: answer };
    },
  } as unknown as SecretsManagerClient;
  return { client, calls };
}

describe('keys from Secrets Manager', () => {
  it('reads a plain string or JSON {"keys":[...]}', () => {
    expect(parseSecret(' only-key ')).toEqual(['only-key']);
    expect(parseSecret('{"keys":["a"," b "]}')).toEqual(['a', 'b']);
    expect(() => parseSecret('{"key":"a"}')).toThrow('{"keys"');
  });

  it('fetches once and serves the cached keys until five minutes have passed', async () => {
    let now = 0;
    const { client, calls } = scriptedClient(['old-key', '{"keys":["old-key","new-key"]}']);
    const provider = secretKeys('s', { client, now: () => now });
    await Promise.all([provider.keys(), provider.keys(), provider.keys()]);
    expect(calls).toHaveLength(1);
    now = secretCacheMs - 1;
    expect(findKey(await provider.keys(), 'new-key')).toBeUndefined();
    now = secretCacheMs;
    expect(findKey(await provider.keys(), 'new-key')).toBeDefined();
    expect(calls).toHaveLength(2);
  });

  it('keeps the last good keys when a refresh fails, and fails without any', async () => {
    let now = 0;
    const { client } = scriptedClient(['k', new Error('AccessDenied')]);
    const provider = secretKeys('s', { client, now: () => now });
    await provider.keys();
    now = secretCacheMs + 1;
    expect(findKey(await provider.keys(), 'k')).toBeDefined();
    const failing = secretKeys('s', { client: scriptedClient([new Error('AccessDenied')]).client });
    await expect(failing.keys()).rejects.toThrow('AccessDenied');
  });
});
