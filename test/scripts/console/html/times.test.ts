import { describe, expect, it } from 'vitest';
import { statusBadge } from '../../../../scripts/console/html/status-badge.js';
import { ago, timeOf } from '../../../../scripts/console/html/times.js';

const now = Date.parse('2026-11-28T12:00:00.000Z');
const secondsBefore = (seconds: number) => now - seconds * 1000;

describe('times as the lists show them', () => {
  it('says how long ago in the largest whole unit, and just now under 5 s', () => {
    expect(
      [3, 42, 3 * 60 + 59, 5 * 3600 + 1, 2 * 86_400 + 7].map((s) => ago(secondsBefore(s), now)),
    ).toEqual(['just now', '42 s ago', '3 min ago', '5 h ago', '2 d ago']);
  });

  it('says a time ahead of the clock as in so long', () => {
    expect(ago(secondsBefore(-180), now)).toBe('in 3 min');
    expect(ago(secondsBefore(-2), now)).toBe('just now');
  });

  it('shows a stored value that is not a time as it is, without a time element', () => {
    expect(String(timeOf('', now))).toBe('');
    expect(String(timeOf('not-a-time', now))).toBe('not-a-time');
    expect(String(timeOf('2026-11-28T11:57:00.000Z', now))).toBe(
      '<time datetime="2026-11-28T11:57:00.000Z" data-ago="3 min ago">2026-11-28T11:57:00.000Z</time>',
    );
  });
});

describe('the status badge', () => {
  it('is green for Confirm, red for Reject, and neutral for any other word, always written out', () => {
    expect(String(statusBadge('Confirm'))).toBe('<span class="badge ok">Confirm</span>');
    expect(String(statusBadge('Reject'))).toBe('<span class="badge bad">Reject</span>');
    expect(String(statusBadge('Pending'))).toBe('<span class="badge neutral">Pending</span>');
  });
});
