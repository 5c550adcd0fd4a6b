import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectNoLeaks, logCapture } from '../../support/log-capture.js';

/**
 * Every hardening file checks its own logs (each file runs in a process of its own): captured
 * at DEBUG level from before its first test, then, in a last suite named `title`, no line may
 * hold a key, a salted text or any of `secrets`. Call it after the file's other suites.
 */
export function checkLogsForLeaks(
  title: string,
  secrets: Parameters<typeof expectNoLeaks>[2],
): void {
  const logs = logCapture();
  beforeAll(() => logs.start());
  afterAll(() => logs.stop());
  describe(title, () => {
    it('leaves no key or salted text in any captured log line', () => {
      expectNoLeaks(logs, 'callback refused', secrets);
    });
  });
}
