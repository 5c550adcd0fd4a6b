// zod/mini: the same engine and messages as `zod`, a fraction of its bundle and load time
// (only the checks used here are bundled, not every method of every schema class).
import * as z from 'zod/mini';
import { canonicalNumber } from '../json/canonical-number.js';
import { JsonNumber } from '../json/json-number.js';
import { isJsonObject, type JsonValue } from '../json/strict-json.js';

/**
 * The gateway's transaction object (docs/callback-interface.md): the single
 * source of truth for validation, for the {@link Transaction} type and for the field table in the
 * docs. Numbers arrive as {@link JsonNumber} and leave in their canonical plain form
 * (see `json/canonical-number.ts`): the form stored, fingerprinted and published.
 */

/**
 * DynamoDB numbers hold 38 significant digits; a plain form of at most 38 digits is always stored
 * digit for digit, whatever its magnitude.
 */
export const maxDigits = 38;
/** A reference is the table's key; bounded well under DynamoDB's 2,048-byte key limit. */
export const maxReferenceLength = 256;

/** Says "is required" for a missing member, `otherwise` for one of the wrong kind. */
const expected = (otherwise: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : otherwise),
});

/**
 * A JSON number, judged by the value it denotes rather than how it is written (`1.0E7`, `1e+7`
 * and `10000000` are one id), and passed on in its canonical plain form.
 */
const exactNumber = (kind: 'integer' | 'decimal') => {
  const message = `must be a non-negative ${kind} of at most ${maxDigits} digits`;
  return z.pipe(
    z.instanceof(JsonNumber, expected('must be a JSON number')),
    z.transform((n: JsonNumber, context) => {
      const value = canonicalNumber(n.source);
      const fits =
        value !== undefined &&
        !value.negative &&
        value.digits <= maxDigits &&
        (kind === 'decimal' || value.integer);
      if (fits) return value.plain;
      context.issues.push({ code: 'custom', message, input: n.source });
      return z.NEVER;
    }),
  );
};

const text = z.string(expected('must be a string'));

export const transactionShape = {
  /** Transaction id: a non-negative integer, in any JSON form (`42`, `4.2e1`, `42.0`). */
  id: exactNumber('integer'),
  /** The user's unique username. */
  username: text,
  firstName: text,
  lastName: text,
  /** Amount in minor units (cents, kuruş): a non-negative decimal, in any JSON form. */
  amount: exactNumber('decimal'),
  /** ISO 4217-style code: three uppercase letters. */
  currency: z
    .string(expected('must be a string'))
    .check(z.regex(/^[A-Z]{3}$/, { message: 'must be three uppercase letters' })),
  type: z.enum(['Deposit', 'Withdrawal'], expected('must be "Deposit" or "Withdrawal"')),
  status: z.enum(['Confirm', 'Reject'], expected('must be "Confirm" or "Reject"')),
  /** Optional; may be empty. */
  message: z.optional(text),
  /** The gateway's unique id of the transaction: the idempotency key. */
  reference: z.string(expected('must be a string')).check(
    z.minLength(1, { message: 'must not be empty' }),
    z.maxLength(maxReferenceLength, {
      message: `must be at most ${maxReferenceLength} characters`,
    }),
    // Control characters never occur in real references; refusing them also keeps them free
    // to separate the parts of derived keys (see conflict audit keys).
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to match them
    z.regex(/^[^\u0000-\u001f\u007f]*$/, { message: 'must not contain control characters' }),
  ),
  /** The integrity hash; checked before validation, kept as sent. */
  hash: z.optional(text),
} as const;

export const transactionSchema = z.looseObject(transactionShape);

const knownFields = new Set(Object.keys(transactionShape));

type KnownFields = z.output<z.ZodMiniObject<typeof transactionShape>>;

/** A validated transaction: the known fields, plus members added by newer gateway versions. */
export type Transaction = KnownFields & { readonly extra: Readonly<Record<string, JsonValue>> };

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export type ValidationResult =
  | { readonly success: true; readonly transaction: Transaction }
  | { readonly success: false; readonly errors: FieldError[] };

/** Validates a parsed body, naming every failing field (never echoing its value). */
export function validateTransaction(body: JsonValue): ValidationResult {
  // zod would read an array's missing members one by one; a non-object is one error.
  if (!isJsonObject(body)) {
    return { success: false, errors: [{ field: '(body)', message: 'must be a JSON object' }] };
  }
  const result = transactionSchema.safeParse(body);
  if (!result.success) {
    const errors = result.error.issues.map((issue) => ({
      field: issue.path.join('.'),
      message: issue.message,
    }));
    return { success: false, errors };
  }
  const known: Record<string, unknown> = {};
  const extra: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(result.data)) {
    if (knownFields.has(name)) known[name] = value;
    else extra[name] = value as JsonValue;
  }
  return { success: true, transaction: { ...(known as KnownFields), extra } };
}
