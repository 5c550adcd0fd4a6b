import { hash } from 'node:crypto';
import Big from 'big.js';
import {
  type FieldDeclarations,
  isNumberKind,
} from '../../../lambda/callback/transaction-fields.js';
import { type ReconciledValues, reconciledFields } from './gateway-report.js';

/**
 * A 52-bit digest of the reconciled fields, equal for values reconcile calls equal (numbers as
 * exact decimals: `1050.70` and `1050.7` digest alike). 52 bits fit a double exactly, so a
 * million of them fit a Float64Array of 8 MB; two different values digest alike with odds of
 * 2^-52 per compared row, which would count that row as agreeing.
 */
export function valuesDigest(fields: FieldDeclarations) {
  const names = reconciledFields(fields).map(
    (name) => [name, isNumberKind(fields[name] as FieldDeclarations[string])] as const,
  );
  return (values: ReconciledValues): number => {
    const record = values as Record<string, string>;
    const text = names
      .map(([name, isNumber]) => {
        const value = record[name] ?? '';
        return isNumber ? canonicalDecimal(value) : value;
      })
      // The receiver checked each field (a decimal, a code, two names): none holds a NUL.
      .join('\u0000');
    // 13 hex digits are 52 bits.
    return Number.parseInt(hash('sha1', text).slice(0, 13), 16);
  };
}

/** One text per decimal value; a damaged item's non-decimal is kept as written, marked apart. */
function canonicalDecimal(text: string): string {
  try {
    const value = new Big(text);
    return value.eq(0) ? '0' : value.toString();
  } catch {
    return `\u0001${text}`;
  }
}
