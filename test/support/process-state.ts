import { afterAll, beforeAll, vi } from 'vitest';

/**
 * Files share a worker process (vitest.config.ts, `isolate`), so each ends with the process as
 * it found it: its environment (however a test changed it: `vi.stubEnv`, an assignment, a
 * command run in process), its spies, stubbed globals and fake timers. A setup file runs before
 * every test file; its hooks run first and last around the file's own.
 */
let environment: NodeJS.ProcessEnv = {};
let nodeEnvironment: NodeJS.ProcessEnv = process.env;
beforeAll(() => {
  nodeEnvironment = process.env;
  environment = { ...process.env };
});
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  // Node's own object, not a copy put in its place: assigning TZ to a copy changes no time zone.
  process.env = nodeEnvironment;
  for (const name of Object.keys(process.env)) {
    if (!(name in environment)) delete process.env[name];
  }
  Object.assign(process.env, environment);
});
