import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../scripts/cli/cli-errors.js';
import { optionalWindow, timeWindow } from '../../../scripts/table/time-window.js';

describe('timeWindow (list --since/--until)', () => {
  it('keeps since and ends one millisecond before until: [since, until)', () => {
    const window = timeWindow('2026-11-20T22:00:00Z', '2026-11-22T00:00:00Z');

    expect(window).toEqual({
      since: '2026-11-20T22:00:00.000Z',
      lastIncluded: '2026-11-21T23:59:59.999Z',
    });
  });

  it('reads a date alone as midnight UTC and runs to now without --until', () => {
    const now = new Date('2026-11-22T10:30:00Z');

    const window = timeWindow('2026-11-21', undefined, now);

    expect(window).toEqual({
      since: '2026-11-21T00:00:00.000Z',
      lastIncluded: '2026-11-22T10:30:00.000Z',
    });
  });

  it('converts offsets to UTC', () => {
    const window = timeWindow('2026-11-22T01:00:00+03:00', '2026-11-22T02:00:00+03:00');

    expect(window.since).toBe('2026-11-21T22:00:00.000Z');
  });

  it('accepts a window of decades: no limit on its length', () => {
    const now = new Date('2026-11-22T10:30:00Z');

    expect(timeWindow('2000-01-01', undefined, now).since).toBe('2000-01-01T00:00:00.000Z');
  });

  it('says a --since in the future is in the future, not that --until is too early', () => {
    const now = new Date('2026-11-22T10:30:00Z');

    expect(() => timeWindow('2026-12-01', undefined, now)).toThrow(
      /--since 2026-12-01 is in the future/,
    );
  });

  it.each([
    ['yesterday', undefined],
    ['2026-13-01', undefined],
    ['2026-11-22', '2026-11-21'],
  ])('refuses --since %s --until %s', (since, until) => {
    expect(() => timeWindow(since, until)).toThrow(UsageError);
  });
});

describe('a window the options may leave out', () => {
  it('is none without --since, the window with it, and --until alone is refused', () => {
    expect(optionalWindow()).toBeUndefined();
    expect(optionalWindow('2026-11-21', '2026-11-22')).toEqual({
      since: '2026-11-21T00:00:00.000Z',
      lastIncluded: '2026-11-21T23:59:59.999Z',
    });
    expect(() => optionalWindow(undefined, '2026-11-22')).toThrow('--until needs --since');
  });
});
