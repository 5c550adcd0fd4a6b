import * as z from 'zod/mini';
import type { JsonValue } from '../json/strict-json.js';

/**
 * The gateway's transaction, declared once: every field with what it is and where it goes. The
 * schema, the fingerprint, the stored item and its reading back, the events and their schema,
 * the list indexes and columns, reconcile's compared columns, the simulator's samples and the
 * field table of docs/callback-interface.md are all derived from {@link transactionFields}.
 * Adding a field is one entry here (docs/design.md, "Adding a field").
 */
export interface FieldDeclaration {
  /**
   * The JSON value: a string, an exact number (any JSON form, judged by value, kept in its
   * canonical plain form, stored as a DynamoDB `N`, published as decimal text), or one of
   * `values`.
   */
  readonly kind: 'text' | 'integer' | 'decimal' | 'enumeration';
  /** The values of an enumeration, in the order the docs name them. */
  readonly values?: readonly [string, ...string[]];
  /** Further rules of a text field, each with its own message (e.g. a length, a format). */
  readonly checks?: readonly z.core.$ZodCheck<string>[];
  readonly required: boolean;
  /** Compared for duplicates: in the fingerprint, so another value makes a conflict (409). */
  readonly fingerprinted: boolean;
  /** On the bus, in the events' detail. */
  readonly published: boolean;
  /** A column of `list`/`export` (so projected by the list indexes), with its table title. */
  readonly listed: false | string;
  /** Compared by `reconcile` with the gateway's report. */
  readonly reconciled: boolean;
  /**
   * The declaration version the field appeared in (1: the first). Items are stored with the
   * version they were validated under, and a redelivery of an item stored under an earlier
   * version is compared by that version's fields (lambda/callback/same-transaction.ts).
   */
  readonly since: number;
  /** Its rule, as the field table of docs/callback-interface.md states it. */
  readonly rule: string;
}

export type FieldDeclarations = Readonly<Record<string, FieldDeclaration>>;

/** DynamoDB numbers hold 38 significant digits; a plain form of at most 38 is stored exactly. */
export const maxDigits = 38;
/** A reference is the table's key; bounded well under DynamoDB's 2,048-byte key limit. */
export const maxReferenceLength = 256;

const numberRule = (what: string, forms: string) =>
  `a JSON number denoting a non-negative ${what}, in any form (${forms}); at most ${maxDigits} digits written plainly`;

/**
 * The field most are, so that a declaration states only its rule and what differs: required,
 * compared for duplicates, published, neither listed nor reconciled, there from the first version.
 */
const usual = {
  required: true,
  fingerprinted: true,
  published: true,
  listed: false,
  reconciled: false,
  since: 1,
} as const;

/** What a declaration states: its rule, and where it is not the usual field. */
type Given = Partial<Omit<FieldDeclaration, 'kind' | 'values'>> & Pick<FieldDeclaration, 'rule'>;

/** The declaration `given` makes: its own properties, the usual field's for the rest. */
type Declared<K extends FieldDeclaration['kind'], G> = {
  readonly [P in 'kind' | keyof typeof usual | keyof G]: P extends 'kind'
    ? K
    : P extends keyof G
      ? G[P]
      : P extends keyof typeof usual
        ? (typeof usual)[P]
        : never;
};

/** A field of `kind`: what `given` states, the usual field's properties for the rest. */
function field<const K extends FieldDeclaration['kind'], const G extends Given>(
  kind: K,
  given: G,
): Declared<K, G> {
  return { kind, ...usual, ...given } as Declared<K, G>;
}

/** A JSON string. */
export const text = <const G extends Given>(given: G) => field('text', given);
/** A JSON number that is a whole number. */
export const integer = <const G extends Given>(given: G) => field('integer', given);
/** A JSON number, kept exactly. */
export const decimal = <const G extends Given>(given: G) => field('decimal', given);
/** One of `values`. */
export const enumeration = <const G extends Given & Pick<Required<FieldDeclaration>, 'values'>>(
  given: G,
) => field('enumeration', given);

/** Declaration order is the gateway's member order: the body, the docs and the columns follow it. */
export const transactionFields = {
  id: integer({ listed: 'id', rule: numberRule('integer', '`42`, `4.2e1`, `42.0`') }),
  username: text({ listed: 'username', rule: "string: the user's unique username" }),
  firstName: text({ rule: 'string' }),
  lastName: text({ rule: 'string' }),
  amount: decimal({
    listed: 'amount (minor)',
    reconciled: true,
    rule: numberRule('decimal in minor units (cents, kuruş)', '`1050.70`, `1.0E7`, `1e+16`'),
  }),
  currency: text({
    checks: [z.regex(/^[A-Z]{3}$/, { message: 'must be three uppercase letters' })],
    listed: 'cur',
    reconciled: true,
    rule: 'three uppercase letters (ISO 4217-style)',
  }),
  type: enumeration({
    values: ['Deposit', 'Withdrawal'],
    listed: 'type',
    reconciled: true,
    rule: '`Deposit` or `Withdrawal`',
  }),
  status: enumeration({
    values: ['Confirm', 'Reject'],
    listed: 'status',
    reconciled: true,
    rule: '`Confirm` or `Reject`',
  }),
  message: text({ required: false, rule: 'string, may be empty' }),
  reference: text({
    checks: [
      z.minLength(1, { message: 'must not be empty' }),
      z.maxLength(maxReferenceLength, {
        message: `must be at most ${maxReferenceLength} characters`,
      }),
      // Control characters never occur in real references; refusing them also keeps them free
      // to separate the parts of derived keys (see conflict audit keys).
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to match them
      z.regex(/^[^\u0000-\u001f\u007f]*$/, { message: 'must not contain control characters' }),
    ],
    listed: 'reference',
    rule: `1 to ${maxReferenceLength} characters, no control characters: the gateway's unique id of the transaction, the idempotency key`,
  }),
  /*
   * Checked before validation and kept as sent. Not compared: a redelivery signed with a rotated
   * key is the same transaction. Not published: every subscriber of the bus would hold the body's
   * fields and this digest salted with the API key, all an offline guess at the key needs.
   */
  hash: text({
    required: false,
    fingerprinted: false,
    published: false,
    rule: 'string, see [callback-hash.md](callback-hash.md)',
  }),
} as const satisfies FieldDeclarations;

export type TransactionFields = typeof transactionFields;
export type FieldName = keyof TransactionFields;

/** The value a field holds once validated: numbers as their canonical decimal text. */
type FieldValue<F> = F extends { readonly values: readonly (infer V)[] } ? V : string;
type RequiredName<Fs> = { [K in keyof Fs]: Fs[K] extends { required: true } ? K : never }[keyof Fs];

/** A validated transaction of a declaration: its fields, plus members it does not declare. */
export type TransactionOf<Fs extends FieldDeclarations> = {
  [K in RequiredName<Fs>]: FieldValue<Fs[K]>;
} & { [K in Exclude<keyof Fs, RequiredName<Fs>>]?: FieldValue<Fs[K]> } & {
  readonly extra: Readonly<Record<string, JsonValue>>;
};

/** Names of the fields with a property: `fieldNames(fields, (f) => f.fingerprinted)`. */
export function fieldNames(
  fields: FieldDeclarations,
  which: (field: FieldDeclaration) => boolean = () => true,
): string[] {
  return Object.keys(fields).filter((name) => which(fields[name] as FieldDeclaration));
}

/** The version of a declaration: the newest field's. */
export function fieldsVersion(fields: FieldDeclarations): number {
  return Math.max(...Object.values(fields).map((field) => field.since));
}

export const isNumberKind = (field: FieldDeclaration) =>
  field.kind === 'integer' || field.kind === 'decimal';
