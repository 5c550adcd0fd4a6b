// zod/mini: the same engine and messages as `zod`, a fraction of its bundle and load time
// (only the checks used here are bundled, not every method of every schema class).
import * as z from 'zod/mini';
import { canonicalNumber } from '../json/canonical-number.js';
import { JsonNumber } from '../json/json-number.js';
import { isJsonObject, type JsonValue } from '../json/strict-json.js';
import { perDeclaration } from './per-declaration.js';
import {
  type FieldDeclaration,
  type FieldDeclarations,
  maxDigits,
  type TransactionFields,
  type TransactionOf,
  transactionFields,
} from './transaction-fields.js';

/**
 * Validation of the gateway's transaction object, built from its declaration
 * (`transaction-fields.ts`). Numbers arrive as {@link JsonNumber} and leave in their canonical
 * plain form (see `json/canonical-number.ts`): the form stored, fingerprinted and published.
 */

/** Says "is required" for a missing member, `otherwise` for one of the wrong kind. */
const expected = (otherwise: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : otherwise),
});

/**
 * A JSON number, judged by the value it denotes rather than how it is written (`1.0E7`, `1e+7`
 * and `10000000` are one id), and passed on in its canonical plain form. One transform that also
 * checks the input's kind, rather than `z.instanceof` piped into it: two schemas fewer per number
 * field to build and run on every cold start, and the same messages.
 */
const exactNumber = (kind: 'integer' | 'decimal') => {
  const message = `must be a non-negative ${kind} of at most ${maxDigits} digits`;
  return z.transform((input: unknown, context) => {
    if (!(input instanceof JsonNumber)) {
      const kindMessage = input === undefined ? 'is required' : 'must be a JSON number';
      context.issues.push({ code: 'custom', message: kindMessage, input });
      return z.NEVER;
    }
    const value = canonicalNumber(input.source);
    const fits =
      value !== undefined &&
      !value.negative &&
      value.digits <= maxDigits &&
      (kind === 'decimal' || value.integer);
    if (fits) return value.plain;
    context.issues.push({ code: 'custom', message, input: input.source });
    return z.NEVER;
  });
};

/** A present value's rule, whatever the field's presence: the value validated as the field. */
export type FieldSchema = z.ZodMiniType<string, unknown>;

/** The rule of one field's value (a member that is present). */
export function valueSchema(field: FieldDeclaration): FieldSchema {
  switch (field.kind) {
    case 'integer':
    case 'decimal':
      return exactNumber(field.kind);
    case 'enumeration': {
      const values = field.values ?? [''];
      const named = values.map((value) => JSON.stringify(value));
      const list = `${named.slice(0, -1).join(', ')} or ${named.at(-1)}`;
      return z.enum(values, expected(`must be ${named.length > 1 ? list : named[0]}`));
    }
    case 'text': {
      const text = z.string(expected('must be a string'));
      return field.checks && field.checks.length > 0 ? text.check(...field.checks) : text;
    }
  }
}

/** The zod shape of a declaration: each field's value rule, optional where the field is. */
export function shapeOf(fields: FieldDeclarations): Record<string, z.ZodMiniType> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => {
      const rule = valueSchema(field);
      return [name, field.required ? rule : z.optional(rule)];
    }),
  );
}

/** A validated transaction: the declared fields, plus members added by newer gateway versions. */
export type Transaction = TransactionOf<TransactionFields>;

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export type ValidationResult<T = Transaction> =
  | { readonly success: true; readonly transaction: T }
  | { readonly success: false; readonly errors: FieldError[] };

/**
 * Each declaration's field rules, the real one's built once at cold start. The body is checked field by
 * field rather than through a `z.looseObject` of these rules: the object schema added nothing
 * the loop below does not (each rule already says "is required" for a missing member, undeclared
 * members are kept apart anyway), and building and first running it cost about 2.5 ms of every
 * cold start (docs/performance.md).
 */
const shapeFor = perDeclaration(shapeOf);

/**
 * Validates a parsed body against a declaration (the real one unless given), naming every
 * failing field in the declaration's order (never echoing its value). Undeclared members are
 * kept apart, in `extra`, in the body's order.
 */
export function validateTransaction<Fs extends FieldDeclarations = TransactionFields>(
  body: JsonValue,
  fields: Fs = transactionFields as FieldDeclarations as Fs,
): ValidationResult<TransactionOf<Fs>> {
  if (!isJsonObject(body)) {
    return { success: false, errors: [{ field: '(body)', message: 'must be a JSON object' }] };
  }
  const known: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [name, rule] of Object.entries(shapeFor(fields))) {
    // A missing member is read as undefined: the rule says it is required, or lets it be.
    const result = z.safeParse(rule, Object.hasOwn(body, name) ? body[name] : undefined);
    if (!result.success) {
      for (const issue of result.error.issues) {
        errors.push({ field: [name, ...issue.path].join('.'), message: issue.message });
      }
    } else if (result.data !== undefined) {
      known[name] = result.data;
    }
  }
  if (errors.length > 0) return { success: false, errors };
  const extra: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(body)) {
    if (!Object.hasOwn(fields, name)) extra[name] = value;
  }
  return { success: true, transaction: { ...known, extra } as TransactionOf<Fs> };
}

/**
 * Members of `extra` that a declaration now defines, read as those fields: how an item stored
 * before a field was declared (its value then an extra member) is read under the declaration
 * that added it. A value the field's rule refuses stays in `rest`, as stored: nothing is lost.
 */
export function declaredMembers(
  fields: FieldDeclarations,
  extra: Readonly<Record<string, JsonValue>>,
): { readonly values: Record<string, string>; readonly rest: Record<string, JsonValue> } {
  const values: Record<string, string> = {};
  const rest: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(extra)) {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    const read = field === undefined ? undefined : z.safeParse(valueSchema(field), value);
    if (read?.success) values[name] = read.data;
    else rest[name] = value;
  }
  return { values, rest };
}
