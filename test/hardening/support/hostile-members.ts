import Big from 'big.js';
import fc from 'fast-check';
import { Members, RawJson, type Value } from './independent-signer.js';

/**
 * The members of a generated transaction, as JSON values: the defined ones mostly valid, now and
 * then a hostile number or the wrong kind, plus extra members a newer gateway might add.
 */

/** Marks every generated person's name, so a log check can find any name without a list. */
export const nameMarker = 'Ğizli';

/** Number texts a gateway, a proxy or an attacker might write, valid JSON or not. */
export const hostileNumberTexts = [
  '0',
  '-0',
  '-1',
  '007',
  '1.0',
  '1.50',
  '0.5',
  '.5',
  '1.',
  '+1',
  '1e3',
  '1E3',
  '1e400',
  '-1e400',
  '1e-400',
  '9007199254740993',
  '99999999999999999999999999999999999999',
  '999999999999999999999999999999999999999',
  `1${'0'.repeat(308)}`,
  `1${'0'.repeat(309)}`,
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
];

/** `undefined` most of the time, a value from `arbitrary` about once in `odds + 1`. */
export const rarely = <T>(arbitrary: fc.Arbitrary<T>, odds: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: odds, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

const digits = (min: number, max: number) =>
  fc
    .tuple(
      fc.integer({ min: 1, max: 9 }),
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max }),
    )
    .map(([first, rest]) => `${first}${rest}`);

export const personName = fc
  .string({ unit: 'grapheme', maxLength: 10 })
  .map((name) => `${nameMarker}${name}`);

/** Something of the wrong JSON kind for any field. */
const wrongKind: fc.Arbitrary<Value> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constant([] as Value[]),
  fc.constant(new Members([])),
  fc.string({ maxLength: 5 }),
  fc.integer().map((n) => new RawJson(String(n))),
);

/** Mostly `valid`, sometimes a hostile number, sometimes the wrong kind. */
function field(valid: fc.Arbitrary<Value>, hostile: fc.Arbitrary<Value>): fc.Arbitrary<Value> {
  return fc.oneof(
    { weight: 30, arbitrary: valid },
    { weight: 1, arbitrary: hostile },
    { weight: 1, arbitrary: wrongKind },
  );
}

const hostileNumber = fc
  .oneof(
    fc.constantFrom(...hostileNumberTexts),
    digits(30, 60),
    fc.tuple(digits(0, 20), digits(0, 25)).map(([int, frac]) => `${int}.${frac}`),
  )
  .map((text) => new RawJson(text));

/** Sometimes rewrites a plain number the way other serializers do: `1.0E7`, `1e+16`, `-0`. */
const otherForm = (plain: string) =>
  fc
    .tuple(fc.integer({ min: -3, max: 3 }), fc.constantFrom('e', 'E', 'e+'))
    .map(([shift, marker]) => {
      if (plain === '0') return shift < 0 ? '-0' : `0${marker}${shift + 3}`;
      return `${new Big(plain).times(new Big(10).pow(-shift)).toFixed()}${marker}${shift}`.replace(
        'e+-',
        'e-',
      );
    });
const sometimesOtherForm = (plain: fc.Arbitrary<string>) =>
  plain.chain((text) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(text) },
      { weight: 1, arbitrary: otherForm(text) },
    ),
  );

const validId = sometimesOtherForm(fc.oneof(fc.constant('0'), digits(0, 37))).map(
  (text) => new RawJson(text),
);
export const validAmount = sometimesOtherForm(
  fc
    .tuple(
      fc.oneof(fc.constant('0'), digits(0, 15)),
      rarely(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 6 }), 1),
    )
    .map(([int, frac]) => (frac === undefined ? int : `${int}.${frac}`)),
).map((text) => new RawJson(text));

/** The members before `reference`, in the gateway's order, mostly valid. */
const memberValues = {
  id: field(validId, hostileNumber),
  username: field(personName, fc.constant('\ud800')),
  firstName: field(personName, fc.constant('\udc00x')),
  lastName: field(personName, personName),
  amount: field(validAmount, hostileNumber),
  currency: field(
    fc.constantFrom('TRY', 'USD', 'EUR', 'GBP', 'JPY'),
    fc.constantFrom('usd', 'TRYX', '', 'ÇĞÜ', 'U$D'),
  ),
  type: field(fc.constantFrom('Deposit', 'Withdrawal'), fc.constantFrom('deposit', 'Refund', '')),
  status: field(fc.constantFrom('Confirm', 'Reject'), fc.constantFrom('confirm', 'Pending', '')),
  message: fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 4,
      arbitrary: field(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ maxLength: 5 })),
    },
  ),
};
/** The names the interface defines: an extra member never takes one. */
const definedNames = [...Object.keys(memberValues), 'reference', 'hash'];
const transactionMembers = fc.record(memberValues).map((fields) => {
  const entries: [string, Value][] = [];
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined) entries.push([name, value]);
  return new Members(entries);
});

/** Names of members a newer gateway might add, the empty name included. */
const extraName = fc
  .oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('', 'channel', 'fee', 'meta', '__proto__', 'constructor', 'hash2', 'Reference'),
  )
  .filter((name) => !definedNames.includes(name));

const leafValue: fc.Arbitrary<Value> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.boolean(),
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => new RawJson(JSON.stringify(n))),
  hostileNumber,
);

const nestedValue = fc
  .tuple(fc.integer({ min: 1, max: 40 }), fc.boolean())
  .map(([depth, scalar]) => {
    let value: Value = scalar ? new RawJson('0') : [];
    for (let i = 1; i < depth; i++) value = [value];
    return value;
  });

const extraValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 6, arbitrary: leafValue },
  { weight: 2, arbitrary: fc.array(leafValue, { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(extraName, leafValue), { maxLength: 3 })
      .map((entries) => new Members(entries)),
  },
  { weight: 1, arbitrary: nestedValue },
);

/** Now and then one member written twice. */
export const withDuplicate = fc
  .tuple(transactionMembers, rarely(fc.constantFrom('id', 'amount', 'currency', 'username'), 30))
  .map(([members, twice]) => {
    const value = twice === undefined ? undefined : members.get(twice);
    return twice === undefined || value === undefined
      ? members
      : new Members([...members.entries, [twice, value]]);
  });

export const extras = fc
  .uniqueArray(fc.tuple(extraName, extraValue), { maxLength: 3, selector: ([name]) => name })
  .map((entries) => new Members(entries));
export const noExtras = fc.constant(new Members([]));
