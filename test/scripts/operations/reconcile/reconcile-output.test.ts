import { describe, expect, it } from 'vitest';
import type { Resolution } from '../../../../lambda/settle/settlement.js';
import type { KeptConflict } from '../../../../scripts/operations/reconcile/reconcile.js';
import {
  contradicted,
  FindingsTables,
  findingSections,
  findingShape,
} from '../../../../scripts/operations/reconcile/reconcile-output.js';

const conflict = (
  id: string,
  decided?: { resolution: Resolution; settledBy: string; settledAt: string },
): KeptConflict => ({
  reference: 'ref-1',
  receivedAt: '2026-11-28T10:00:00.000Z',
  requestId: `req-${id}`,
  id,
  amount: '7',
  currency: 'EUR',
  type: 'Deposit',
  status: 'Confirm',
  state: decided?.resolution ?? 'current',
  ...(decided ? { settlement: { ...decided, reason: `OPS for ${id}`, version: 1 } } : {}),
});

/** One conflict kept, another decided later accepting a correction, one that is the stored content. */
const history = [
  conflict('aaaaaaaaaaaa', {
    resolution: 'stored',
    settledBy: 'local:ops-a',
    settledAt: '2026-11-28T11:00:00.000Z',
  }),
  conflict('bbbbbbbbbbbb', {
    resolution: 'received',
    settledBy: 'local:ops-b',
    settledAt: '2026-11-28T12:00:00.000Z',
  }),
  conflict('cccccccccccc'),
];

describe('what reconcile prints of settled conflicts', () => {
  it('a mismatch on a settled reference names the newest decision it contradicts', () => {
    expect(contradicted(history)).toBe(
      'contradicts the settlement: local:ops-b accepted a correction at 2026-11-28T12:00:00.000Z',
    );
    expect(contradicted([...history].reverse())).toBe(contradicted(history));
    expect(contradicted(history.slice(0, 1))).toBe(
      'contradicts the settlement: local:ops-a kept the stored content at 2026-11-28T11:00:00.000Z',
    );
  });

  it('a mismatch with no decision behind it contradicts nothing', () => {
    expect(contradicted(undefined)).toBe('');
    expect(contradicted([conflict('cccccccccccc')])).toBe('');
  });

  it('the settled table lists each decision, and blanks for the content that is the stored one', () => {
    const [, , rows] = findingSections.settled;

    expect(rows({ kind: 'settled', reference: 'ref-1', conflicts: history })).toEqual([
      [
        'ref-1',
        'aaaaaaaaaaaa',
        'stored',
        'local:ops-a',
        '2026-11-28T11:00:00.000Z',
        'OPS for aaaaaaaaaaaa',
        '2026-11-28T10:00:00.000Z',
      ],
      [
        'ref-1',
        'bbbbbbbbbbbb',
        'received',
        'local:ops-b',
        '2026-11-28T12:00:00.000Z',
        'OPS for bbbbbbbbbbbb',
        '2026-11-28T10:00:00.000Z',
      ],
      ['ref-1', 'cccccccccccc', 'current', '', '', '', '2026-11-28T10:00:00.000Z'],
    ]);
  });

  it('the terminal shows settled conflicts under their own title, and CSV a row each with the decision', () => {
    const tables = new FindingsTables();
    tables.add({ kind: 'settled', reference: 'ref-1', conflicts: history });

    expect(tables.render()).toMatch(/^Settled conflicts: decided by an operator/);
    expect(tables.hidden).toBe(0);
    const csv = findingShape.csvRows({ kind: 'settled', reference: 'ref-1', conflicts: history });
    const column = (name: string) => findingShape.csvHead.indexOf(name as never);
    expect(csv.map((row) => [row[column('conflict')], row[column('settledBy')]])).toEqual([
      ['aaaaaaaaaaaa', 'local:ops-a'],
      ['bbbbbbbbbbbb', 'local:ops-b'],
      ['cccccccccccc', ''],
    ]);
  });
});
