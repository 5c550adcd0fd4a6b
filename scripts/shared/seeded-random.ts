import { createHash } from 'node:crypto';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * A seeded source (pure-rand's xoroshiro128+): the same seed gives the same sequence on any
 * machine, so a simulated run or a fault plan can be replayed from the seed it printed. Not for
 * anything secret.
 */
export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T;
  hex(length: number): string;
  digits(length: number): string;
  /** A shuffled copy (Fisher–Yates). */
  shuffled<T>(items: readonly T[]): T[];
}

/** A text seed (what `--seed` takes) is hashed to the generator's 32-bit seed. */
export function seededRandom(seed: string | number): Random {
  const numeric =
    typeof seed === 'number' ? seed | 0 : createHash('sha256').update(seed).digest().readInt32BE();
  const generator = xoroshiro128plus(numeric);
  const next = () => uniformFloat64(generator);
  const int = (min: number, max: number) => uniformInt(generator, min, max);
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    weighted: (choices) => {
      const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
      let point = next() * total;
      for (const [value, weight] of choices) {
        point -= weight;
        if (point < 0) return value;
      }
      return (choices.at(-1) as (typeof choices)[number])[0];
    },
    hex: (length) => Array.from({ length }, () => int(0, 15).toString(16)).join(''),
    digits: (length) => Array.from({ length }, () => String(int(0, 9))).join(''),
    shuffled: (items) => {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as (typeof copy)[number], copy[i] as (typeof copy)[number]];
      }
      return copy;
    },
  };
}
