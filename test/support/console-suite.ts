import { startTestConsole, type TestConsole, type TestConsoleOptions } from './console-browser.js';
import type { Engine } from './engines.js';
import { suiteFixture } from './suite-fixture.js';

/** The console as run against a stack without `--allow-actions`: it shows, and never writes. */
export const readOnly: TestConsoleOptions = { mode: 'deployed', allowActions: false };

/** A console over fresh tables on `engine` for the calling describe block, closed after it. */
export function suiteConsole(engine: Engine, options: TestConsoleOptions = {}): TestConsole {
  return suiteFixture(
    () => startTestConsole(engine, options),
    (console) => console.close(),
  );
}
