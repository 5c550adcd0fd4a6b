import { describe, expect, it } from 'vitest';
import { timerTracker } from './live-timers.js';

/** The tracker the timer-release tests rely on: it must see a leak, and only a leak. */
describe('timerTracker', () => {
  it('reports a timer left pending, with the stack that set it, and not one cleared', async () => {
    const timers = timerTracker();
    timers.start();
    const left = setTimeout(() => {}, 60_000);
    clearTimeout(setTimeout(() => {}, 60_000));
    const signal = AbortSignal.timeout(60_000);

    const pending = await timers.stillPending();

    clearTimeout(left);
    expect(signal.aborted).toBe(false);
    expect(pending).toHaveLength(2);
    expect(pending.every((stack) => stack.includes('live-timers.test.ts'))).toBe(true);
  });
});
