import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { DeliveryResult } from '../../../scripts/gateway/deliver.js';
import { type PlannedDelivery, planDeliveries } from '../../../scripts/gateway/delivery-plan.js';
import { seededRandom } from '../../../scripts/gateway/seeded-random.js';
import { runSimulation } from '../../../scripts/gateway/simulate.js';

/**
 * How simulate sends its plan: concurrently, each follower only after its original finished,
 * and on Ctrl-C (the signal) nothing more, with what was unsent and in flight counted.
 */

const plan = planDeliveries(seededRandom('simulate'), {
  count: 40,
  duplicates: 0.2,
  conflicts: 0.1,
});
const recorded = (planned: PlannedDelivery): DeliveryResult => ({
  attempts: [{ status: 204, latencyMs: 1 }],
  status: 204,
  outcome: planned.kind === 'original' ? 'recorded' : 'duplicate',
});

describe('runSimulation', () => {
  it('sends every delivery, at most `concurrency` at once, each follower after its original', async () => {
    const finished = new Set<number>();
    const followedEarly: number[] = [];
    let sending = 0;
    let most = 0;

    const run = await runSimulation(plan, 4, new AbortController().signal, async (planned) => {
      if (planned.after !== undefined && !finished.has(planned.after)) {
        followedEarly.push(planned.index);
      }
      sending += 1;
      most = Math.max(most, sending);
      await sleep(planned.index % 3);
      sending -= 1;
      finished.add(planned.index);
      return recorded(planned);
    });

    expect(run.results).toHaveLength(40);
    expect(run.results.every(Boolean)).toBe(true);
    expect(followedEarly).toEqual([]);
    expect(most).toBeLessThanOrEqual(4);
    expect(most).toBeGreaterThan(1);
    expect(run).not.toHaveProperty('interrupted');
  });

  it('on the signal starts nothing more and counts what was not sent and what was in flight', async () => {
    const stop = new AbortController();
    let started = 0;
    const hanging = new Promise<never>(() => {});

    const run = await runSimulation(plan, 3, stop.signal, async (planned) => {
      started += 1;
      // The first five answer; the sixth to eighth hang, in flight when Ctrl-C comes.
      if (started > 5) {
        if (started === 8) stop.abort();
        return hanging;
      }
      return recorded(planned);
    });

    expect(started).toBe(8);
    expect(run.results.filter(Boolean)).toHaveLength(5);
    expect(run.interrupted).toEqual({ notSent: 32, inFlight: 3 });
  });
});
