import Big from 'big.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalNumber } from '../../../lambda/json/canonical-number.js';

const plainOf = (source: string) => canonicalNumber(source)?.plain;

/** A JSON number text: digits, an optional fraction, an optional exponent in any spelling. */
const jsonNumberText = fc
  .record({
    sign: fc.constantFrom('', '-'),
    whole: fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,20}$/)),
    fraction: fc.option(fc.stringMatching(/^\d{1,20}$/), { nil: undefined }),
    exponent: fc.option(fc.integer({ min: -60, max: 60 }), { nil: undefined }),
    marker: fc.constantFrom('e', 'E'),
    plus: fc.boolean(),
  })
  .map(({ sign, whole, fraction, exponent, marker, plus }) => {
    const fractionText = fraction === undefined ? '' : `.${fraction}`;
    const exponentText =
      exponent === undefined ? '' : `${marker}${plus && exponent >= 0 ? '+' : ''}${exponent}`;
    return `${sign}${whole}${fractionText}${exponentText}`;
  });

describe('canonical number', () => {
  it.each([
    ['1E3', '1000'],
    ['1.0E7', '10000000'],
    ['1e+16', '10000000000000000'],
    ['1050.70', '1050.7'],
    ['0.050', '0.05'],
    ['5e-2', '0.05'],
    ['-0', '0'],
    ['-0.000e9', '0'],
    ['-12.50', '-12.5'],
    ['9007199254740993', '9007199254740993'],
    ['123456789012345678901234567890123456789e-20', '1234567890123456789.01234567890123456789'],
  ])('writes %s as %s', (source, plain) => {
    expect(plainOf(source)).toBe(plain);
  });

  it('counts the digits written plainly, not the lone zero before a fraction', () => {
    expect(canonicalNumber('1e3')?.digits).toBe(4);
    expect(canonicalNumber('0.05')?.digits).toBe(2);
    expect(canonicalNumber('0')?.digits).toBe(0);
  });

  it('refuses to expand an exponent far beyond any accepted value, without building the text', () => {
    expect(canonicalNumber('1e400')).toBeUndefined();
    expect(canonicalNumber('1e-400')).toBeUndefined();
    expect(canonicalNumber('1e99999999999999999999')).toBeUndefined();
    expect(plainOf('0e99999999999999999999')).toBe('0');
  });

  it('refuses text that is not a JSON number', () => {
    for (const source of ['', '1.', '.5', '+1', '1e', '0x10', 'NaN', '1 ']) {
      expect(canonicalNumber(source)).toBeUndefined();
    }
  });

  it('denotes the same value as the source, by an independent decimal library', () => {
    fc.assert(
      fc.property(jsonNumberText, (source) => {
        const value = canonicalNumber(source);
        if (value === undefined) return;
        expect(new Big(value.plain).eq(new Big(source))).toBe(true);
        expect(value.plain).toMatch(/^(?:0|-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?)$/);
      }),
    );
  });

  it('gives two texts one plain form exactly when they denote the same value', () => {
    // Pairs that often denote the same value: one text, and it rewritten with a shifted exponent.
    const sameOrNot = fc.oneof(
      fc.tuple(jsonNumberText, jsonNumberText),
      fc.tuple(jsonNumberText, fc.integer({ min: -5, max: 5 })).map(([source, shift]) => {
        const big = new Big(source);
        return [source, `${big.times(new Big(10).pow(shift)).toFixed()}e${-shift}`] as const;
      }),
    );
    fc.assert(
      fc.property(sameOrNot, ([a, b]) => {
        const [ca, cb] = [canonicalNumber(a), canonicalNumber(b)];
        if (ca === undefined || cb === undefined) return;
        expect(ca.plain === cb.plain).toBe(new Big(a).eq(new Big(b)));
      }),
    );
  });
});
