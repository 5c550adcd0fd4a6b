import type { GatewayTransaction } from '../shared/gateway-callback.js';
import type { Random } from '../shared/seeded-random.js';
import { transactionGenerator } from './transaction-generator.js';

/**
 * - `original`: a transaction's first delivery;
 * - `redelivery`: the same transaction again (the gateway never saw the acknowledgement);
 * - `conflicting`: the same reference with other content (a gateway bug, or an attack).
 */
export type DeliveryKind = 'original' | 'redelivery' | 'conflicting';

export interface PlannedDelivery {
  readonly index: number;
  readonly kind: DeliveryKind;
  readonly transaction: GatewayTransaction;
  /** The original this one repeats or contradicts: sent only after that one has finished. */
  readonly after?: number;
}

export interface PlanOptions {
  readonly count: number;
  /** Fraction of `count` that are redeliveries. */
  readonly duplicates: number;
  /** Fraction of `count` that contradict an earlier delivery. */
  readonly conflicts: number;
}

export interface Plan {
  readonly deliveries: readonly PlannedDelivery[];
  readonly originals: number;
  readonly redeliveries: number;
  readonly conflicting: number;
}

/**
 * Every delivery of a run, decided up front from the seed. Redeliveries and conflicting
 * deliveries are placed after their original and wait for it, so what the receiver answers
 * (recorded, duplicate, conflict) does not depend on how the concurrent requests interleave.
 */
export function planDeliveries(random: Random, options: PlanOptions): Plan {
  const redeliveries = Math.round(options.count * options.duplicates);
  const conflicting = Math.round(options.count * options.conflicts);
  const originals = options.count - redeliveries - conflicting;
  if (originals < 1 && options.count > 0) {
    throw new Error('--duplicates plus --conflicts must leave at least one original delivery');
  }
  const generator = transactionGenerator(random, originals);
  const firsts = Array.from({ length: originals }, () => generator.next());

  // Sort positions: originals at 0, 1, 2…; a follower somewhere after its original.
  const slots: {
    position: number;
    kind: DeliveryKind;
    transaction: GatewayTransaction;
    of?: number;
  }[] = firsts.map((transaction, position) => ({ position, kind: 'original', transaction }));
  const follow = (of: number) => of + 0.5 + random.next() * (originals - of);
  for (let i = 0; i < redeliveries; i++) {
    const of = random.int(0, originals - 1);
    slots.push({
      position: follow(of),
      kind: 'redelivery',
      transaction: firsts[of] as GatewayTransaction,
      of,
    });
  }
  // Distinct originals while there are enough, so each conflict is its own story.
  const contradicted = random.shuffled([...firsts.keys()]);
  for (let i = 0; i < conflicting; i++) {
    const of = contradicted[i % originals] as number;
    const original = firsts[of] as GatewayTransaction;
    slots.push({
      position: follow(of),
      kind: 'conflicting',
      transaction: contradict(original, i),
      of,
    });
  }
  slots.sort((a, b) => a.position - b.position);

  const indexOfOriginal = new Map<number, number>();
  const deliveries = slots.map((slot, index): PlannedDelivery => {
    if (slot.kind === 'original') indexOfOriginal.set(slot.position, index);
    return {
      index,
      kind: slot.kind,
      transaction: slot.transaction,
      ...(slot.of === undefined ? {} : { after: indexOfOriginal.get(slot.of) as number }),
    };
  });
  return { deliveries, originals, redeliveries, conflicting };
}

/**
 * The same reference with the outcome reversed: the classic conflict, a rejected transaction
 * later reported as confirmed (or the other way round). `n` keeps repeated conflicts on one
 * reference distinct.
 */
function contradict(original: GatewayTransaction, n: number): GatewayTransaction {
  const status = original.status === 'Confirm' ? 'Reject' : 'Confirm';
  return { ...original, status, message: `Durum düzeltildi (${n + 1})` };
}
