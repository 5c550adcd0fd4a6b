import { describe, expect, it } from 'vitest';
import { WindowIndex } from '../../../../scripts/operations/reconcile/window-index.js';

describe('WindowIndex (the references of reconcile’s window, outside the heap)', () => {
  it('finds each of many references, non-ASCII and long ones too, with its digest', () => {
    const index = new WindowIndex();
    const references = Array.from({ length: 20_000 }, (_, i) =>
      i % 997 === 0 ? `réf-${i}-${'x'.repeat(600)}` : `ref-${i}`,
    );
    references.forEach((reference, i) => {
      index.add(reference, i * 3);
    });
    index.add('ref-5', 42);

    expect(index.size).toBe(20_000);
    expect(references.map((reference) => index.see(reference))).toEqual(
      references.map((_, i) => (i === 5 ? 42 : i * 3)),
    );
    expect(index.see('ref-20000')).toBeUndefined();
    expect(index.see('ref-1 ')).toBeUndefined();
    expect(index.unseenCount).toBe(0);
  });

  it('gives the references the report did not name, in the order they were added', () => {
    const index = new WindowIndex();
    for (const reference of ['c', 'a', 'ü', 'b']) index.add(reference, 1);

    index.see('a');
    index.see('a');
    index.see('b');

    expect([...index.unseen()]).toEqual(['c', 'ü']);
    expect(index.unseenCount).toBe(2);
    expect([index.isUnseen('c'), index.isUnseen('a'), index.isUnseen('zz')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});
