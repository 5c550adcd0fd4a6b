import { createHash, timingSafeEqual } from 'node:crypto';
import type { TimeBudget } from '../budget/time-budget.js';

/** An API key the receiver accepts. The value is the hash salt; only the id is ever recorded. */
export interface AcceptedKey {
  /** A stable, non-secret name for the key: `key-` and the first 12 hex digits of its SHA-256. */
  readonly id: string;
  readonly value: string;
  /** SHA-256 of the value: fixed length, so comparisons never depend on the key's length. */
  readonly digest: Buffer;
}

/** Where the accepted keys come from: the environment, or a secret that may rotate. */
export interface KeyProvider {
  /** The keys held now; waits, within `budget`, only while none are known yet. */
  keys(budget: TimeBudget): Promise<readonly AcceptedKey[]>;
  /**
   * The keys after an early refresh, asked for when a presented key is not among them (a
   * rotation may have added it). Providers whose keys never change leave it out.
   */
  refreshed?(budget: TimeBudget): Promise<readonly AcceptedKey[]>;
}

export function acceptedKey(value: string): AcceptedKey {
  const digest = createHash('sha256').update(value, 'utf8').digest();
  return { id: `key-${digest.toString('hex').slice(0, 12)}`, value, digest };
}

export function staticKeys(values: readonly string[]): KeyProvider {
  const keys = values.map(acceptedKey);
  return { keys: async () => keys };
}

/**
 * The accepted key equal to `presented`, if any. Compares SHA-256 digests with
 * `timingSafeEqual` against every key, without stopping at a match, so neither the position of
 * the matching key nor the length of a guess shows in the timing.
 */
export function findKey(keys: readonly AcceptedKey[], presented: string): AcceptedKey | undefined {
  const digest = createHash('sha256').update(presented, 'utf8').digest();
  let found: AcceptedKey | undefined;
  for (const key of keys) {
    if (timingSafeEqual(key.digest, digest)) found = key;
  }
  return found;
}
