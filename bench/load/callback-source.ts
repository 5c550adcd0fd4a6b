import { signedBody } from '../../scripts/shared/gateway-signer.js';

/**
 * Signed callbacks, each with a reference no other request of the run uses, built as the load
 * generator asks for them (a SHA-256 over ~300 bytes costs microseconds).
 */
export function callbackSource(key: string, runTag: string) {
  let sequence = 0;
  return function next(): { reference: string; body: string } {
    sequence += 1;
    const reference = `load-${runTag}-${sequence}`;
    const body = signedBody(
      {
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
      },
      key,
    );
    return { reference, body };
  };
}
