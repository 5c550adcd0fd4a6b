import { deliver } from '../../scripts/simulate/deliver.js';

export interface Settled {
  /** Deliveries retried because their first answer was not a 204 (or never came). */
  readonly retried: number;
  /** Of those, answered `duplicate`: the first attempt had been stored after all. */
  readonly alreadyStored: number;
  /** References acknowledged on retry. */
  readonly acknowledged: ReadonlySet<string>;
  /** Still not acknowledged after every retry (must be none). */
  readonly failed: number;
}

/**
 * What the payment gateway does with a callback that got a 503 or no answer: send it again until
 * a 2xx. A 503 after a timeout may hide a write that landed, so some retries are `duplicate`.
 */
export async function settle(
  url: string,
  key: string,
  unacknowledged: ReadonlyMap<string, string>,
): Promise<Settled> {
  const acknowledged = new Set<string>();
  let alreadyStored = 0;
  let failed = 0;
  const queue = [...unacknowledged];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [reference, body] = next;
      const result = await deliver(url, key, body, {
        maxAttempts: 20,
        backoffMs: 100,
        maxBackoffMs: 2_000,
        timeoutMs: 30_000,
      });
      if (result.status === 204) {
        acknowledged.add(reference);
        if (result.outcome === 'duplicate') alreadyStored += 1;
      } else {
        failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { retried: unacknowledged.size, alreadyStored, acknowledged, failed };
}
