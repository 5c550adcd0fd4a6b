import type { DeliveryResult } from './deliver.js';
import type { Plan, PlannedDelivery } from './delivery-plan.js';

export type RunResult = Awaited<ReturnType<typeof runSimulation>>;

/**
 * Sends the plan, `concurrency` at a time, a follower after its original (retries included).
 * After `signal` nothing starts and nothing in flight is waited for.
 */
export async function runSimulation(
  plan: Plan,
  concurrency: number,
  signal: AbortSignal,
  send: (planned: PlannedDelivery) => Promise<DeliveryResult>,
) {
  // By plan index; a hole where a delivery never finished (an interrupted run).
  const results: (DeliveryResult | undefined)[] = new Array(plan.deliveries.length);
  const finished: Promise<void>[] = [];
  let next = 0;
  let sending = 0;
  const worker = async () => {
    while (next < plan.deliveries.length && !signal.aborted) {
      const planned = plan.deliveries[next++] as PlannedDelivery;
      finished[planned.index] = (async () => {
        if (planned.after !== undefined) await finished[planned.after];
        if (signal.aborted) return;
        sending++;
        results[planned.index] = await send(planned);
        sending--;
      })();
      await finished[planned.index];
    }
  };
  const started = performance.now();
  const stopped = new Promise((stop) => signal.addEventListener('abort', stop, { once: true }));
  await Promise.race([Promise.all(Array.from({ length: concurrency }, worker)), stopped]);
  const durationMs = performance.now() - started;
  if (!signal.aborted) return { results, durationMs };
  // A copy: deliveries still in flight may finish before the caller reads it.
  const sent = results.filter(Boolean).length;
  const interrupted = { notSent: plan.deliveries.length - sent - sending, inFlight: sending };
  return { results: [...results], durationMs, interrupted };
}
