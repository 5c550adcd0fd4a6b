import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Starts dynalite and DynamoDB Local once per run (see test/support/engines.ts).
    globalSetup: ['test/support/global-setup.ts'],
    // Test files in child processes (vitest's default, made explicit): a crash or a leaked handle
    // stays in its worker, away from the engines, which live in the main process.
    pool: 'forks',
    // A worker runs file after file over the modules it has already loaded (the SDK, Playwright,
    // the product's own), rather than a fresh process and module graph per file: a fifth of the
    // run went to those imports. The price: a module's top level runs once per worker, so a file
    // that mocks a module re-imports what uses it (`vi.resetModules()`, as constant-time.test.ts
    // does), and a test puts back what it changes of the process (the in-process runner does).
    isolate: false,
    // Vitest's default is one worker per core less one: a single file at a time on the 2-core
    // machines this project runs on. Most files wait on an engine, a browser or a child process
    // rather than compute, so three at a time keep both cores busy (the suite's figures: README).
    maxWorkers: 3,
    // Integration tests talk to real engines over HTTP.
    testTimeout: 30_000,
    // beforeAll hooks create tables; suites that start their own engine may fetch the jar first.
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    // One JSON log line and one EMF blob per invocation would bury the test report; the tests
    // that check logs and metrics turn them back on for themselves.
    // npm's own warnings (CDK runs esbuild through npx during synth) are left to `npm ci`'s output.
    env: {
      POWERTOOLS_LOG_LEVEL: 'SILENT',
      POWERTOOLS_METRICS_DISABLED: 'true',
      npm_config_loglevel: 'error',
    },
    // Before every file: drop CDK's "Bundling asset …" lines, which bypass the console, and put
    // back after it what the file changed of the shared worker process (see each file).
    setupFiles: ['test/support/quiet-bundling.ts', 'test/support/process-state.ts'],
    // What a test prints (the hardening suites' figures among it) is shown when it fails;
    // `npm run test:hardening` shows it always.
    silent: 'passed-only',
    // The product's tests stay complete as it changes: `npm test` fails below these figures.
    // Two entries are left out: infra/app.ts runs under `cdk synth` in a child process, and
    // lambda/stream-consumer.ts is one line around createStreamConsumer, which the tests build.
    coverage: {
      provider: 'v8',
      include: ['lambda/**/*.ts', 'infra/**/*.ts', 'scripts/**/*.ts'],
      exclude: ['lambda/stream-consumer.ts', 'infra/app.ts'],
      // The per-file table: `npx vitest run --coverage --coverage.reporter=text`.
      reporter: ['text-summary'],
      reportsDirectory: '.cache/coverage',
      reportOnFailure: true,
      thresholds: {
        // What ships to Lambda and the stack: at least 95% of lines and of branches. What is
        // left uncovered is mostly fallbacks the strict types ask for and the composition never
        // reaches; a new branch needs a test that proves it.
        'lambda/**/*.ts': { lines: 95, branches: 95 },
        'infra/**/*.ts': { lines: 95, branches: 95 },
        // The tools, as a floor that only rises: the commands run in the tests' own process
        // (test/support/in-process-cli.ts), so coverage sees them (docs/tools.md, "Coverage").
        'scripts/**/*.ts': { lines: 95, branches: 90 },
        // The guards, file by file: an uncovered branch in one is a failure, not an average.
        'scripts/console/security/**/*.ts': { perFile: true, lines: 100, branches: 100 },
        'scripts/local/engine/{signature-check,signed-requests-only,connection-limits}.ts': {
          perFile: true,
          lines: 100,
          branches: 100,
        },
      },
    },
  },
});
