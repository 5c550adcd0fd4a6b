import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts dynalite and DynamoDB Local once per run (see test/support/engines.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Test files in child processes (vitest's default, made explicit): a file that crashes or
    // leaks handles cannot take the others down. The engines live in the main process.
    pool: 'forks',
    // Integration tests talk to real engines over HTTP.
    testTimeout: 30_000,
    // beforeAll hooks create tables; suites that start their own engine may fetch the jar first.
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // One JSON log line and one EMF blob per invocation would bury the test report; the tests
    // that check logs and metrics turn them back on for themselves.
    env: { POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' },
    // What a test prints (the hardening suites' figures among it) is shown when it fails;
    // `npm run test:hardening` shows it always.
    silent: 'passed-only',
  },
});
