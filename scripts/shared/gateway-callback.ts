import { JsonNumber } from '../../lambda/json/json-number.js';
import { type SignOptions, signedBody } from './gateway-signer.js';

/**
 * A callback as the payment gateway builds it. Numbers are held as their decimal text so that an
 * id beyond 2^53 goes on the wire digit for digit, as the gateway's own serializer writes it.
 */
export interface GatewayTransaction {
  /** Decimal digits, written as a JSON number. */
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
 * The body the gateway POSTs: compact JSON, members in the order the gateway emits them
 * (docs/callback-hash.md), signed by the receiver's own signer so the two cannot drift apart.
 */
export function callbackBody(
  t: GatewayTransaction,
  key: string,
  options: Pick<SignOptions, 'hash' | 'wire'> = {},
): string {
  // Written unquoted into the JSON text, so they must be plain decimals.
  if (!plainDecimal.test(t.id) || !plainDecimal.test(t.amount)) {
    throw new Error(`id and amount must be plain decimals, got ${t.id} and ${t.amount}`);
  }
  const { username, firstName, lastName, currency, type, status, message, reference } = t;
  const [id, amount] = [new JsonNumber(t.id), new JsonNumber(t.amount)];
  const members = { id, username, firstName, lastName, amount, currency, type, status, message };
  return signedBody({ ...members, reference }, key, options);
}
