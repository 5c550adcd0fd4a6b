// zod/mini: the same engine and messages as `zod`, a fraction of its bundle and load time
// (only the checks used here are bundled, not every method of every schema class).
import * as z from 'zod/mini';
import { JsonNumber } from '../json/json-number.js';
import { isJsonObject, type JsonValue } from '../json/strict-json.js';

/**
 * The gateway's transaction object (shared/spec/completion-callback.md, section 2): the single
 * source of truth for validation, for the {@link Transaction} type and for the field table in the
 * README. Numbers arrive as {@link JsonNumber} and leave as their exact decimal text.
 */

/** DynamoDB numbers hold 38 significant digits; more could not be stored digit for digit. */
const maxDigits = 38;
/** A reference is the table's key; bounded well under DynamoDB's 2,048-byte key limit. */
export const maxReferenceLength = 256;

/** Says "is required" for a missing member, `otherwise` for one of the wrong kind. */
const expected = (otherwise: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : otherwise),
});

const exactNumber = (pattern: RegExp, message: string) =>
  z.pipe(
    z.instanceof(JsonNumber, expected('must be a JSON number')).check(
      z.refine((n) => pattern.test(n.source) && n.source.replace(/\D/g, '').length <= maxDigits, {
        message: `${message}, at most ${maxDigits} digits`,
      }),
    ),
    z.transform((n: JsonNumber) => n.source),
  );

const text = z.string(expected('must be a string'));

export const transactionShape = {
  /** Transaction id: a non-negative integer, written without sign, fraction or exponent. */
  id: exactNumber(/^(?:0|[1-9]\d*)$/, 'must be a non-negative integer'),
  /** The user's unique username. */
  username: text,
  firstName: text,
  lastName: text,
  /** Amount in minor units (cents, kuruş): a non-negative decimal, no exponent. */
  amount: exactNumber(/^(?:0|[1-9]\d*)(?:\.\d+)?$/, 'must be a non-negative decimal'),
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
