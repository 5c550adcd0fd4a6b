import { callbackBody } from '../shared/gateway-callback.js';
import { type DeliveryResult, deliver, type RetryPolicy } from './deliver.js';
import type { Plan, PlannedDelivery } from './delivery-plan.js';

export interface RunOptions {
  readonly url: string;
  readonly key: string;
  readonly concurrency: number;
  readonly hash: boolean;
  readonly wire: 'escaped' | 'utf8';
  readonly retry: RetryPolicy;
  /** Stops the run: no new delivery starts, and those in flight are not waited for. */
  readonly signal?: AbortSignal;
  /** Called after each finished delivery and each retry, for a progress display. */
  readonly onProgress?: (progress: { done: number; retries: number }) => void;
}

export interface DeliveryRecord {
  readonly planned: PlannedDelivery;
  readonly result: DeliveryResult;
}

export interface RunResult {
  /** By plan index; a hole where a delivery never finished (an interrupted run). */
  readonly records: readonly (DeliveryRecord | undefined)[];
  /** Set when the signal stopped the run. */
  readonly interrupted?: { readonly notSent: number; readonly inFlight: number };
  readonly durationMs: number;
}

/**
 * Sends the plan with `concurrency` requests in flight. A follower (redelivery, conflicting
 * delivery) waits until its original has finished, retries included.
 */
export async function runSimulation(plan: Plan, options: RunOptions): Promise<RunResult> {
  const finished = new Map<number, Promise<void>>();
  const settle = new Map<number, () => void>();
  for (const delivery of plan.deliveries) {
    finished.set(delivery.index, new Promise<void>((done) => settle.set(delivery.index, done)));
  }
  const records: (DeliveryRecord | undefined)[] = new Array(plan.deliveries.length);
  const { signal } = options;
  const stopped = new Promise<'stopped'>((resolve) =>
    signal?.addEventListener('abort', () => resolve('stopped'), { once: true }),
  );
  let next = 0;
  let done = 0;
  let sending = 0;
  let retries = 0;
  const report = () => options.onProgress?.({ done, retries });

  const started = performance.now();
  async function worker(): Promise<void> {
    while (next < plan.deliveries.length && !signal?.aborted) {
      const planned = plan.deliveries[next++] as PlannedDelivery;
      if (planned.after !== undefined) await finished.get(planned.after);
      if (signal?.aborted) return;
      const body = callbackBody(planned.transaction, options.key, {
        hash: options.hash,
        wire: options.wire,
      });
      sending++;
      const result = await deliver(options.url, options.key, body, options.retry, () => {
        retries++;
        report();
      });
      sending--;
      records[planned.index] = { planned, result };
      done++;
      settle.get(planned.index)?.();
      report();
    }
  }
  const workers = Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  // On a stop, what has finished is the result: deliveries still in flight are not waited for.
  const ending = await Promise.race([workers, stopped]);
  const durationMs = performance.now() - started;
  if (ending !== 'stopped') return { records, durationMs };
  return {
    records: [...records],
    durationMs,
    interrupted: { notSent: plan.deliveries.length - done - sending, inFlight: sending },
  };
}
