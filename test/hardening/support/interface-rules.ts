import Big from 'big.js';
import { maxDepth } from '../../../lambda/json/strict-json.js';
import { Members, RawJson, type Value } from './independent-signer.js';

/**
 * The rules of docs/callback-interface.md, written again from the docs and not from the
 * receiver's code: what a strict JSON reader refuses (400) and what the transaction table
 * refuses (422). The oracle predicts answers with them.
 */

export const maxReferenceLength = 256;

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a strict JSON reader must refuse the value, if it must (the receiver's 400). */
export function parseProblem(value: Value, level = 1): string | undefined {
  if (level > maxDepth) return 'too deep';
  if (value instanceof RawJson) {
    if (!jsonNumber.test(value.text)) return 'not a JSON number';
    if (!Number.isFinite(Number(value.text))) return 'beyond a double';
    return undefined;
  }
  if (typeof value === 'string') return loneSurrogate.test(value) ? 'lone surrogate' : undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = parseProblem(item, level + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (value instanceof Members) {
    const seen = new Set<string>();
    for (const [name, member] of value.entries) {
      if (name === '__proto__' || name === 'constructor') return 'forbidden name';
      if (seen.has(name)) return 'duplicate name';
      if (loneSurrogate.test(name)) return 'lone surrogate';
      seen.add(name);
      const problem = parseProblem(member, level + 1);
      if (problem) return problem;
    }
  }
  return undefined;
}

/**
 * A number denotes a value, whatever its form (`1.0E7` is the integer 10000000): judged here
 * with big.js, not the receiver's code. The plain form may have at most 38 digits, the lone `0`
 * before a fraction's point not counted.
 */
function numberFits(text: string, kind: 'integer' | 'decimal'): boolean {
  const value = new Big(text);
  if (value.lt(0)) return false;
  if (kind === 'integer' && !value.round(0, Big.roundDown).eq(value)) return false;
  if (value.abs().gte('1e38') || (!value.eq(0) && value.abs().lt('1e-38'))) return false;
  const plain = value.abs().toFixed();
  return (
    plain
      .replace(/^0\./, '')
      .replace(/\D/g, '')
      .replace(/^0+(?=\d)/, '').length <= 38
  );
}

/** Why the transaction table of docs/callback-interface.md refuses the members, if it does (the receiver's 422). */
export function schemaProblem(members: Members): string | undefined {
  const field = (name: string) => members.get(name);
  const number = (name: string, kind: 'integer' | 'decimal') => {
    const value = field(name);
    return value instanceof RawJson && numberFits(value.text, kind);
  };
  const string = (name: string) => typeof field(name) === 'string';
  const oneOf = (name: string, values: string[]) => values.includes(field(name) as string);
  const reference = field('reference');
  const checks: [string, boolean][] = [
    ['id', number('id', 'integer')],
    ['username', string('username')],
    ['firstName', string('firstName')],
    ['lastName', string('lastName')],
    ['amount', number('amount', 'decimal')],
    ['currency', string('currency') && /^[A-Z]{3}$/.test(field('currency') as string)],
    ['type', oneOf('type', ['Deposit', 'Withdrawal'])],
    ['status', oneOf('status', ['Confirm', 'Reject'])],
    ['message', field('message') === undefined || string('message')],
    [
      'reference',
      typeof reference === 'string' &&
        reference.length >= 1 &&
        reference.length <= maxReferenceLength &&
        // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are the point
        !/[\u0000-\u001f\u007f]/.test(reference),
    ],
    ['hash', field('hash') === undefined || string('hash')],
  ];
  return checks.find(([, ok]) => !ok)?.[0];
}
