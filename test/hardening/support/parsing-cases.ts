import { JsonNumber } from '../../../lambda/json/json-number.js';
import type { SerializableValue } from '../../../lambda/json/json-text.js';
import { maxDepth } from '../../../lambda/json/strict-json.js';
import { signed } from '../../support/fixtures.js';
import { fields, type NamedCase } from './named-request.js';

/** Named cases of JSON text: what JSON.parse would silently resolve, numbers, nesting. */

/**
 * A case refused 400 whose one oddity is the member `text`, inserted into a signed body right
 * after the opening brace (`first`) or before the closing one (`last`).
 */
const memberCase = (name: string, place: 'first' | 'last', text: string): NamedCase => ({
  name,
  status: 400,
  request: (ref) => {
    const body = signed(fields(ref));
    return {
      body: place === 'first' ? body.replace('{', `{${text},`) : body.replace(/}$/, `,${text}}`),
    };
  },
});
/** A case whose one oddity is `written`, the JSON text of `member`; `stored`, how it is kept. */
const numberCase = (
  name: string,
  status: number,
  member: string,
  written: string,
  stored?: string,
): NamedCase => ({
  name,
  status,
  request: (ref) => ({ body: signed(fields(ref, { [member]: new JsonNumber(written) })) }),
  ...(stored === undefined ? {} : { stored: { [member]: stored } }),
});
/** `levels` arrays around nothing. */
function emptyNestedArrays(levels: number): SerializableValue {
  let value: SerializableValue = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

/** `levels` arrays around a 0. */
function nestedArrays(levels: number): SerializableValue {
  let value: SerializableValue = 0;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

export const parsingCases: readonly NamedCase[] = [
  // Parsing: what JSON.parse would silently resolve is refused.
  memberCase('a duplicate member name', 'last', '"amount":1'),
  memberCase('a duplicate member name spelled with an escape', 'last', '"am\\u006funt":1'),
  memberCase('a __proto__ member', 'first', '"__proto__":{"polluted":true}'),
  memberCase(
    'a __proto__ member spelled with an escape',
    'first',
    '"\\u005f_proto__":{"polluted":true}',
  ),
  memberCase(
    'a __proto__ member nested in an extra member',
    'first',
    '"meta":{"__proto__":{"polluted":true}}',
  ),
  memberCase('a constructor member', 'first', '"constructor":{"prototype":{"polluted":true}}'),
  numberCase('1e400 as the amount', 400, 'amount', '1e400'),
  numberCase('1e400 in an extra member', 400, 'fee', '1e400'),
  numberCase('-0 as the amount, stored as 0', 204, 'amount', '-0', '0'),
  numberCase('-0 as the id, stored as 0', 204, 'id', '-0', '0'),
  numberCase("Jackson's 1.0E7 as the amount, stored plainly", 204, 'amount', '1.0E7', '10000000'),
  numberCase(
    "Python's 1e+16 as the amount, stored plainly",
    204,
    'amount',
    '1e+16',
    '10000000000000000',
  ),
  numberCase('4.2e1 as the id, stored as 42', 204, 'id', '4.2e1', '42'),
  numberCase('1.5e0 as the id', 422, 'id', '1.5e0'),
  {
    name: '9007199254740993 as the id, stored digit for digit',
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { id: 9007199254740993n })) }),
    stored: { id: '9007199254740993' },
  },
  numberCase(
    'an amount of 38 digits, stored digit for digit',
    204,
    'amount',
    `1${'0'.repeat(37)}`,
    `1${'0'.repeat(37)}`,
  ),
  numberCase('an amount of 39 digits', 422, 'amount', `1${'0'.repeat(38)}`),
  // The object is level 1, so maxDepth − 2 arrays and the number inside make maxDepth levels.
  {
    name: `nested arrays ${maxDepth} levels deep in all, the most allowed`,
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { deep: nestedArrays(maxDepth - 2) })) }),
  },
  {
    name: `nested arrays ${maxDepth + 1} levels deep in all`,
    status: 400,
    request: (ref) => ({ body: signed(fields(ref, { deep: nestedArrays(maxDepth - 1) })) }),
  },
  {
    name: `empty nested arrays ${maxDepth} levels deep in all, the most allowed`,
    status: 204,
    request: (ref) => ({ body: signed(fields(ref, { deep: emptyNestedArrays(maxDepth - 1) })) }),
  },
  {
    name: 'a body of 30,000 nested arrays',
    status: 400,
    request: () => ({ body: `${'['.repeat(30_000)}${']'.repeat(30_000)}` }),
  },
  {
    name: 'a body of 100,000 nested arrays',
    status: 413,
    request: () => ({ body: `${'['.repeat(100_000)}${']'.repeat(100_000)}` }),
  },
];

/** Not a transaction at all. */
export const notTransactionCases: readonly NamedCase[] = [
  { name: 'an empty body', status: 400, request: () => ({ body: '' }) },
  { name: 'a body of whitespace', status: 400, request: () => ({ body: ' \n\t ' }) },
  { name: 'a JSON array', status: 422, request: () => ({ body: '[]' }) },
  { name: 'null', status: 422, request: () => ({ body: 'null' }) },
  { name: 'a JSON string', status: 422, request: () => ({ body: '"{}"' }) },
];
