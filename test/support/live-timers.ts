import { createHook } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Records every timer created in this process from `start()` on (`setTimeout`, and the timers
 * behind `AbortSignal.timeout` and `timers/promises`, referenced or not) and which of them are
 * still pending: a timer is gone once it has fired or been cleared.
 */
export function timerTracker() {
  const pending = new Map<number, string>();
  const hook = createHook({
    init(asyncId, type) {
      if (type !== 'Timeout') return;
      const stack = new Error().stack ?? '';
      if (!setByTestRunner(stack)) pending.set(asyncId, stack);
    },
    destroy(asyncId) {
      pending.delete(asyncId);
    },
  });
  return {
    start() {
      pending.clear();
      hook.enable();
    },
    /** The stacks that created the timers still pending, after the current turn has ended. */
    async stillPending(): Promise<string[]> {
      // Node reports a cleared timer's destruction on a later turn.
      await nextTurn();
      await nextTurn();
      hook.disable();
      return [...pending.values()];
    },
  };
}

/**
 * Whether vitest set the timer (its throttled report of finished tests, which can fall inside a
 * test when one worker runs several files): the first caller outside Node's timers is vitest's.
 */
function setByTestRunner(stack: string): boolean {
  const caller = stack
    .split('\n')
    .slice(1)
    .find((frame) => !/\(node:|live-timers\.ts/.test(frame));
  return caller !== undefined && /node_modules\/@?vitest\//.test(caller);
}
