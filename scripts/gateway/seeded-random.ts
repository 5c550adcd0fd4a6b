import { createHash } from 'node:crypto';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * pure-rand's xoroshiro128+, so a simulated run or fault plan replays from the seed it printed
 * (a text seed is hashed to 32 bits). Not for anything secret.
 */
export function seededRandom(seed: string | number) {
  const generator = xoroshiro128plus(
    typeof seed === 'number' ? seed | 0 : createHash('sha256').update(seed).digest().readInt32BE(),
  );
  /** In [0, 1). */
  const next = () => uniformFloat64(generator);
  /** An integer in [min, max]. */
  const int = (min: number, max: number) => uniformInt(generator, min, max);
  const pick = <T>(items: readonly T[]) => items[int(0, items.length - 1)] as T;
  return {
    next,
    int,
    pick,
    chance: (probability: number) => next() < probability,
    /** A key, by integer weight: `{ Confirm: 17, Reject: 3 }`. */
    weighted: <K extends string>(weights: Readonly<Record<K, number>>) =>
      pick(
        Object.entries<number>(weights).flatMap(([key, weight]) => Array<K>(weight).fill(key as K)),
      ),
    /** `length` digits in base `radix`. */
    digits: (length: number, radix = 10) =>
      Array.from({ length }, () => int(0, radix - 1).toString(radix)).join(''),
    /** A shuffled copy (Fisher–Yates). */
    shuffled: <T>(items: readonly T[]) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy;
    },
  };
}

export type Random = ReturnType<typeof seededRandom>;
