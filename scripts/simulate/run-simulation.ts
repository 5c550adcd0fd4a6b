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
  /** Called after each finished delivery and each retry, for a progress display. */
  readonly onProgress?: (progress: { done: number; retries: number }) => void;
}

export interface DeliveryRecord {
  readonly planned: PlannedDelivery;
  readonly result: DeliveryResult;
}

export interface RunResult {
  readonly records: readonly DeliveryRecord[];
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
  const records: DeliveryRecord[] = new Array(plan.deliveries.length);
  let next = 0;
  let done = 0;
  let retries = 0;
  const report = () => options.onProgress?.({ done, retries });

  const started = performance.now();
  async function worker(): Promise<void> {
    while (next < plan.deliveries.length) {
      const planned = plan.deliveries[next++] as PlannedDelivery;
      if (planned.after !== undefined) await finished.get(planned.after);
      const body = callbackBody(planned.transaction, options.key, {
        hash: options.hash,
        wire: options.wire,
      });
      const result = await deliver(options.url, options.key, body, options.retry, () => {
        retries++;
        report();
      });
      records[planned.index] = { planned, result };
      done++;
      settle.get(planned.index)?.();
      report();
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return { records, durationMs: performance.now() - started };
}
