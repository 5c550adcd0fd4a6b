import { type GatewayValue, signedBody } from '../../scripts/shared/gateway-signer.js';

/** The key every receiver in the benchmark accepts (and every body is signed with). */
export const benchKey = 'bench-key-2b7f0c9e41d85a36';

/** A valid transaction in the gateway's member order. */
export function callbackFields(reference: string, sequence = 1): Record<string, GatewayValue> {
  return {
    id: 100_000 + sequence,
    username: 'load.user',
    firstName: 'Çağrı',
    lastName: 'Öztürk',
    amount: 250_075,
    currency: 'TRY',
    type: 'Deposit',
    status: 'Confirm',
    message: '',
    reference,
  };
}

/**
 * Signed callbacks, each with a reference no other request of the run uses, built as the load
 * generator asks for them (a SHA-256 over ~300 bytes costs microseconds).
 */
export function callbackSource(runTag: string, key = benchKey) {
  let sequence = 0;
  return function next(): { reference: string; body: string } {
    sequence += 1;
    const reference = `load-${runTag}-${sequence}`;
    return { reference, body: signedBody(callbackFields(reference, sequence), key) };
  };
}

let fresh = 0;
const processTag = `${process.pid}-${Date.now().toString(36)}`;

/** A reference no other callback of this process uses. */
export function freshReference(): string {
  fresh += 1;
  return `bench-${processTag}-${fresh}`;
}

/** A new callback, signed with `key`, for measurements that do not track references. */
export function freshCallback(key = benchKey): string {
  return signedBody(callbackFields(freshReference()), key);
}
