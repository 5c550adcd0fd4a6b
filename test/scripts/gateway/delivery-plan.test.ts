import { describe, expect, it } from 'vitest';
import { planDeliveries } from '../../../scripts/gateway/delivery-plan.js';
import { seededRandom } from '../../../scripts/gateway/seeded-random.js';

const options = { count: 500, duplicates: 0.1, conflicts: 0.04 };

describe('planDeliveries (what the simulator sends, decided by the seed)', () => {
  it('gives the same callbacks for the same seed and different ones for another', () => {
    const first = planDeliveries(seededRandom('seed-a'), options);
    const again = planDeliveries(seededRandom('seed-a'), options);
    const other = planDeliveries(seededRandom('seed-b'), options);

    expect(again).toEqual(first);
    expect(other.deliveries[0]?.transaction.reference).not.toBe(
      first.deliveries[0]?.transaction.reference,
    );
  });

  it('splits the count into originals, redeliveries and conflicting deliveries', () => {
    const plan = planDeliveries(seededRandom('split'), options);

    expect(plan.deliveries).toHaveLength(500);
    expect(plan).toMatchObject({ originals: 430, redeliveries: 50, conflicting: 20 });
    const kinds = plan.deliveries.map((delivery) => delivery.kind);
    expect(kinds.filter((kind) => kind === 'redelivery')).toHaveLength(50);
    expect(kinds.filter((kind) => kind === 'conflicting')).toHaveLength(20);
    const references = plan.deliveries
      .filter((d) => d.kind === 'original')
      .map((d) => d.transaction.reference);
    expect(new Set(references).size).toBe(430);
  });

  it('places each follower after its original: the same transaction again, or the same reference with the status reversed', () => {
    const plan = planDeliveries(seededRandom('followers'), options);

    for (const delivery of plan.deliveries) {
      if (delivery.kind === 'original') continue;
      const original = plan.deliveries[delivery.after as number];
      expect(original?.kind).toBe('original');
      expect(original?.index).toBeLessThan(delivery.index);
      expect(delivery.transaction.reference).toBe(original?.transaction.reference);
      if (delivery.kind === 'redelivery')
        expect(delivery.transaction).toEqual(original?.transaction);
      else expect(delivery.transaction.status).not.toBe(original?.transaction.status);
    }
  });

  it('builds realistic callbacks: both types and statuses, four currencies, non-ASCII names, ids past 2^53', () => {
    const plan = planDeliveries(seededRandom('realism'), {
      count: 1000,
      duplicates: 0,
      conflicts: 0,
    });
    const transactions = plan.deliveries.map((delivery) => delivery.transaction);

    expect(new Set(transactions.map((t) => t.type))).toEqual(new Set(['Deposit', 'Withdrawal']));
    expect(new Set(transactions.map((t) => t.status))).toEqual(new Set(['Confirm', 'Reject']));
    expect(new Set(transactions.map((t) => t.currency))).toEqual(
      new Set(['TRY', 'USD', 'EUR', 'GBP']),
    );
    expect(transactions.some((t) => /[çğıİöşü]/i.test(t.firstName + t.lastName))).toBe(true);
    expect(transactions.some((t) => BigInt(t.id) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    for (const t of transactions) {
      expect(t.reference).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(t.username).toMatch(/^[a-z0-9.]+$/);
    }
  });

  it('refuses fractions that leave no original delivery', () => {
    expect(() =>
      planDeliveries(seededRandom('x'), { count: 10, duplicates: 0.6, conflicts: 0.5 }),
    ).toThrow(/at least one original/);
  });
});
