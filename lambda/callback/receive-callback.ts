import type { AcceptedKey } from '../auth/accepted-keys.js';
import { type TimeBudget, unlimitedBudget } from '../budget/time-budget.js';
import type { HashMode } from '../config/config.js';
import { isJsonObject, JsonSyntaxError, parseStrictJson } from '../json/strict-json.js';
import type { HashResult, TransactionStore } from '../storage/transaction-store.js';
import { hashedTextCandidates, verifyHash } from './callback-hash.js';
import {
  CallbackError,
  ConflictError,
  HashMismatchError,
  HashMissingError,
  MalformedJsonError,
  ValidationError,
} from './errors.js';
import { differingMembers } from './extra-members.js';
import { fingerprint } from './fingerprint.js';
import { isSameTransaction } from './same-transaction.js';
import { type TransactionFields, transactionFields } from './transaction-fields.js';
import { validateTransaction } from './transaction-schema.js';

/** One authenticated delivery, as the transport hands it over. Knows nothing of HTTP. */
export interface Delivery {
  /** The body as text, exactly as received. */
  readonly rawBody: string;
  /** The accepted key the delivery presented: the hash salt. */
  readonly key: AcceptedKey;
  readonly requestId: string;
  readonly sourceIp: string;
  readonly receivedAt: Date;
  /** The request's headers less credentials, kept with the record; absent: none kept. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Receipt {
  readonly outcome: 'Recorded' | 'Duplicate';
  readonly reference: string;
  readonly hashResult: HashResult;
  /** On a duplicate: members outside the interface that differ from the stored ones, by name. */
  readonly differingMembers?: readonly string[];
}

export interface ReceiveCallbackDependencies {
  readonly store: TransactionStore;
  readonly hashMode: HashMode;
  /**
   * The transaction's declaration: the real one, or a test's fixture that adds fields to it.
   * @default transactionFields
   */
  readonly fields?: TransactionFields;
}

/**
 * Records a completion callback exactly once: parse strictly, verify the hash against the sender's
 * own bytes, validate, then one conditional write. The same content again is a duplicate (the
 * gateway must stop retrying); the same reference with other content is a conflict, kept for audit
 * and refused (still refused once an operator settled it, but then counted apart, raising no
 * alarm). Throws a `CallbackError` for every refusal.
 */
export function receiveCallback(dependencies: ReceiveCallbackDependencies) {
  const { store, hashMode, fields = transactionFields } = dependencies;

  /** `budget` bounds every store call: past it, the delivery is refused as retryable. */
  return async function receive(
    delivery: Delivery,
    budget: TimeBudget = unlimitedBudget(),
  ): Promise<Receipt> {
    const document = parseBody(delivery.rawBody);
    const hashResult = checkHash(delivery, document, hashMode);

    const validation = validateTransaction(document.value, fields);
    if (!validation.success) throw new ValidationError(validation.errors);
    const { transaction } = validation;

    const record = {
      transaction,
      fingerprint: fingerprint(transaction, fields),
      rawBody: delivery.rawBody,
      receivedAt: delivery.receivedAt.toISOString(),
      hashResult,
      keyId: delivery.key.id,
      requestId: delivery.requestId,
      sourceIp: delivery.sourceIp,
      ...(delivery.headers ? { headers: delivery.headers } : {}),
      fields,
    };
    try {
      const put = await store.putIfAbsent(record, budget);
      if (put.kind === 'exists' && !isSameTransaction(put, record, fields)) {
        await store.keepConflict(record, budget, put.settled === true);
        throw new ConflictError({ settled: put.settled === true });
      }
      if (put.kind === 'created') {
        return { outcome: 'Recorded', reference: transaction.reference, hashResult };
      }
      // A member the declaration now defines was stored as an extra one: not a difference.
      const differing = differingMembers(put.extra, transaction.extra).filter(
        (name) => !Object.hasOwn(fields, name),
      );
      return {
        outcome: 'Duplicate',
        reference: transaction.reference,
        hashResult,
        ...(differing.length > 0 ? { differingMembers: differing } : {}),
      };
    } catch (error) {
      if (error instanceof CallbackError) error.reference = transaction.reference;
      throw error;
    }
  };
}

function parseBody(rawBody: string) {
  if (rawBody.charCodeAt(0) === 0xfeff) {
    throw new MalformedJsonError('The body starts with a byte order mark; send plain UTF-8 JSON.');
  }
  try {
    return parseStrictJson(rawBody);
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      throw new MalformedJsonError(`The body is not valid JSON: ${error.message}.`);
    }
    throw error;
  }
}

function checkHash(
  delivery: Delivery,
  document: ReturnType<typeof parseStrictJson>,
  mode: HashMode,
): HashResult {
  if (mode === 'off') return 'not-checked';
  const body = document.value;
  const hash = isJsonObject(body) ? body.hash : undefined;
  if (hash === undefined || hash === '') {
    if (mode === 'required') {
      throw new HashMissingError();
    }
    return 'unverified';
  }
  const candidates = hashedTextCandidates(delivery.rawBody, document.memberSpans.get('hash'));
  if (typeof hash !== 'string' || !verifyHash(candidates, delivery.key.value, hash)) {
    throw new HashMismatchError(
      'The hash does not match the body and API key. Hash the compact JSON with "hash" set to "", ' +
        'followed by the API key; a proxy that re-serializes the body also breaks the hash.',
    );
  }
  return 'verified';
}
