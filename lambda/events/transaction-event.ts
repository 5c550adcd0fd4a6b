import type { EventBridgeEvent } from 'aws-lambda';
// zod/mini, like the receiver's schema it extends: the same engine, a smaller bundle.
import * as z from 'zod/mini';
import { perDeclaration } from '../callback/per-declaration.js';
import {
  type FieldDeclarations,
  isNumberKind,
  type TransactionFields,
  type TransactionOf,
} from '../callback/transaction-fields.js';
import { type FieldSchema, valueSchema } from '../callback/transaction-schema.js';
import { JsonNumber } from '../json/json-number.js';
import { serviceName } from '../observability/metric-names.js';
import type { HashResult } from '../storage/transaction-store.js';
import type { ImageValue } from './stream-image.js';
import type { TransactionCorrectedDetail } from './transaction-corrected.js';

/**
 * The events this product puts on its bus, described once: the schemas below are derived from
 * the transaction's declaration (the fields declared `published`), so a field the receiver
 * validates is a field consumers get, checked by the same rules. They are also a whitelist: an
 * item's `rawBody`, `keyId`, `requestId`, `sourceIp`, `headers` and index attributes are stripped
 * because they are not listed.
 */

/** `source` of every event: the product's name. */
export const eventSource = serviceName;

export const detailTypes = {
  /** A transaction recorded for the first time: the hand-off to the systems that act on it. */
  completed: 'Transaction Completed',
  /** A delivery that claimed a recorded reference with other content: for operators, not crediting. */
  conflict: 'Transaction Conflict',
  /** An operator accepted other content for a recorded transaction (transaction-corrected.ts). */
  corrected: 'Transaction Corrected',
} as const;

export const hashResults = [
  'verified',
  'unverified',
  'not-checked',
] as const satisfies readonly HashResult[];

/**
 * A number as DynamoDB holds it (decimal text), checked by the receiver's own rule for that field
 * and published as text: a JSON number would be parsed into a double by most consumers.
 */
const decimalText = (rule: FieldSchema) =>
  z.pipe(
    z.pipe(
      z.string({
        error: (issue) => (issue.input === undefined ? 'is required' : 'must be decimal text'),
      }),
      z.transform((text: string) => new JsonNumber(text)),
    ),
    // The value rules take any input; zod's pipe types want the previous output exactly.
    rule as z.ZodMiniType<string, unknown> as z.ZodMiniType<string, JsonNumber>,
  );

/** Members added by newer gateway versions; their numbers are decimal text, like `amount`. */
const extraValue: z.ZodMiniType<ImageValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.boolean(),
    z.null(),
    z.array(extraValue),
    z.record(z.string(), extraValue),
  ]),
);

/** The published fields' rules; numbers arrive as the decimal text DynamoDB holds. */
function publishedShape(fields: FieldDeclarations): Record<string, z.ZodMiniType> {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (!field.published) continue;
    const rule = isNumberKind(field) ? decimalText(valueSchema(field)) : valueSchema(field);
    shape[name] = field.required ? rule : z.optional(rule);
  }
  return shape;
}

/** Both detail schemas of a declaration. */
function detailSchemasOf(fields: FieldDeclarations) {
  const completed = {
    ...publishedShape(fields),
    extra: z._default(z.record(z.string(), extraValue), {}),
    /** SHA-256 of the canonical transaction: with `reference`, the key consumers dedupe on. */
    fingerprint: z
      .string()
      .check(z.regex(/^[0-9a-f]{64}$/, { message: 'must be a SHA-256 in hex' })),
    /** When the receiver accepted the callback (ISO-8601, UTC), not when the event was sent. */
    receivedAt: z.iso.datetime(),
    hashResult: z.enum(hashResults),
  };
  return {
    completed: z.object(completed),
    /** The conflicting delivery's content, and the request id that finds its log lines. */
    conflict: z.object({ ...completed, requestId: z.string().check(z.minLength(1)) }),
  };
}

type Unpublished<Fs> = {
  [K in keyof Fs]: Fs[K] extends { published: false } ? K : never;
}[keyof Fs];

/** The detail of `Transaction Completed` under a declaration. */
export type CompletedDetailOf<Fs extends FieldDeclarations> = Omit<
  TransactionOf<Fs>,
  Unpublished<Fs> | 'extra'
> & {
  readonly extra: Record<string, ImageValue>;
  readonly fingerprint: string;
  readonly receivedAt: string;
  readonly hashResult: HashResult;
};

export type TransactionCompletedDetail = CompletedDetailOf<TransactionFields>;
export type TransactionConflictDetail = TransactionCompletedDetail & {
  readonly requestId: string;
};

/** The detail schemas of a declaration (the real one unless given). */
export const detailSchemas = perDeclaration(detailSchemasOf);

/** `Transaction Completed`'s detail under the real declaration (corrections reuse it). */
export const transactionCompletedDetailSchema = detailSchemas()
  .completed as unknown as z.ZodMiniType<TransactionCompletedDetail>;

/** What a consumer's Lambda target receives, for typing handlers. */
export type TransactionCompletedEvent = EventBridgeEvent<
  typeof detailTypes.completed,
  TransactionCompletedDetail
>;
export type TransactionConflictEvent = EventBridgeEvent<
  typeof detailTypes.conflict,
  TransactionConflictDetail
>;

/** One event to publish, before it becomes a PutEvents entry. */
export type TransactionEvent =
  | {
      readonly detailType: typeof detailTypes.completed;
      readonly detail: TransactionCompletedDetail;
    }
  | {
      readonly detailType: typeof detailTypes.conflict;
      readonly detail: TransactionConflictDetail;
    }
  | {
      readonly detailType: typeof detailTypes.corrected;
      readonly detail: TransactionCorrectedDetail;
    };
