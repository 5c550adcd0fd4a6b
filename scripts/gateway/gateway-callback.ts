import {
  type FieldDeclarations,
  isNumberKind,
  transactionFields,
} from '../../lambda/callback/transaction-fields.js';
import { JsonNumber } from '../../lambda/json/json-number.js';
import type { SerializableValue } from '../../lambda/json/json-text.js';
import { type SignOptions, signedBody } from './gateway-signer.js';

/**
 * A callback as the gateway builds it; numbers as decimal text, so ids past 2^53 stay exact.
 * Fields a fixture's declaration adds sit beside the real ones, by name.
 */
export interface GatewayTransaction {
  readonly [field: string]: string | undefined;
  readonly id: string;
  readonly username: string;
  readonly firstName: string;
  readonly lastName: string;
  /** Minor units as JSON number text, e.g. `250075`. */
  readonly amount: string;
  readonly currency: string;
  readonly type: 'Deposit' | 'Withdrawal';
  readonly status: 'Confirm' | 'Reject';
  readonly message: string;
  readonly reference: string;
}

/**
 * A Turkish-named withdrawal, the published hash example's transaction (docs/callback-hash.md,
 * Example B): the banner's curl line and the tests build theirs from it.
 */
export function sampleTransaction(overrides: Partial<GatewayTransaction> = {}): GatewayTransaction {
  return {
    id: '1048577',
    username: 'deniz.kaya',
    firstName: 'Çağrı',
    lastName: 'Öztürk',
    amount: '250075',
    currency: 'TRY',
    type: 'Withdrawal',
    status: 'Reject',
    message: 'Hesap doğrulanamadı',
    reference: '5b0c2f6e-7d4a-4c1b-9a3e-2f8d6b1c0e94',
    ...overrides,
  };
}

const plainDecimal = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * The body the gateway POSTs: compact JSON, members in its order (docs/callback-hash.md), which is
 * the declaration's; number fields written as bare digits.
 */
export function callbackBody(
  t: GatewayTransaction,
  key: string,
  options: Pick<SignOptions, 'hash' | 'wire'> = {},
  fields: FieldDeclarations = transactionFields,
): string {
  const members: Record<string, SerializableValue> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = t[name];
    if (value === undefined) continue;
    // Written unquoted into the JSON text, so they must be plain decimals.
    if (isNumberKind(field) && !plainDecimal.test(value)) {
      throw new Error(`number fields must be plain decimals, got ${name} ${value}`);
    }
    members[name] = isNumberKind(field) ? new JsonNumber(value) : value;
  }
  return signedBody(members, key, options);
}
