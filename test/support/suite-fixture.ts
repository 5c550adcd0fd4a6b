import { afterAll, beforeAll } from 'vitest';

/**
 * Something the calling describe block's tests share (a server, a table, a console): started in
 * its `beforeAll`, stopped in its `afterAll`. The value returned stands for the one started from
 * the first test on (it forwards to it), so a suite declares its fixture in one statement instead
 * of a `let`, a `beforeAll` and an `afterAll`.
 */
export function suiteFixture<T extends object>(
  start: () => Promise<T>,
  stop: (started: T) => unknown,
): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    if (started !== undefined) await stop(started);
  });
  return new Proxy({} as T, {
    get(_target, name) {
      if (started === undefined)
        throw new Error('The fixture starts in beforeAll: use it in tests');
      const value: unknown = Reflect.get(started, name);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
