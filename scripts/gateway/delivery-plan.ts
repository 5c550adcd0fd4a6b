import type { GatewayTransaction } from './gateway-callback.js';
import type { Random } from './seeded-random.js';
import { generateTransactions } from './transaction-generator.js';

export interface PlannedDelivery {
  readonly index: number;
  /**
   * `redelivery`: the same transaction again (the gateway never saw the acknowledgement);
   * `conflicting`: the same reference with other content (a gateway bug, or an attack).
   */
  readonly kind: 'original' | 'redelivery' | 'conflicting';
  readonly transaction: GatewayTransaction;
  /** The original this one repeats or contradicts: sent only after that one has finished. */
  readonly after?: number;
}

export type Plan = ReturnType<typeof planDeliveries>;

/**
 * Every delivery of a run, decided from the seed. Followers wait for their original, so the
 * answers (recorded, duplicate, conflict) do not depend on how concurrent requests interleave.
 */
export function planDeliveries(
  random: Random,
  options: { count: number; duplicates: number; conflicts: number },
) {
  const redeliveries = Math.round(options.count * options.duplicates);
  const conflicting = Math.round(options.count * options.conflicts);
  const originals = options.count - redeliveries - conflicting;
  if (originals < 1 && options.count > 0) {
    throw new Error('--duplicates plus --conflicts must leave at least one original delivery');
  }
  const firsts = generateTransactions(random, originals);
  // Originals at positions 0, 1, 2…; a follower anywhere after its original.
  type Slot = Omit<PlannedDelivery, 'index' | 'after'> & { position: number; of?: number };
  const slots: Slot[] = firsts.map((transaction, position) => ({
    position,
    kind: 'original',
    transaction,
  }));
  const follower = (of: number, kind: Slot['kind'], transaction: GatewayTransaction) =>
    slots.push({ position: of + 0.5 + random.next() * (originals - of), kind, transaction, of });
  for (let i = 0; i < redeliveries; i++) {
    const of = random.int(0, originals - 1);
    follower(of, 'redelivery', firsts[of] as GatewayTransaction);
  }
  // Distinct originals while there are enough, so each conflict is its own story.
  const contradicted = random.shuffled([...firsts.keys()]);
  for (let i = 0; i < conflicting; i++) {
    const of = contradicted[i % originals] as number;
    follower(of, 'conflicting', contradict(firsts[of] as GatewayTransaction, i));
  }
  slots.sort((a, b) => a.position - b.position);

  const indexOfOriginal = new Map<number, number>();
  const deliveries = slots.map(({ position, of, ...slot }, index): PlannedDelivery => {
    if (of === undefined) indexOfOriginal.set(position, index);
    return {
      index,
      ...slot,
      ...(of === undefined ? {} : { after: indexOfOriginal.get(of) as number }),
    };
  });
  return { deliveries, originals, redeliveries, conflicting };
}

/** The classic conflict: the same reference, the status reversed; `n` keeps repeats distinct. */
function contradict(original: GatewayTransaction, n: number): GatewayTransaction {
  const status = original.status === 'Confirm' ? 'Reject' : 'Confirm';
  return { ...original, status, message: `Durum düzeltildi (${n + 1})` };
}
