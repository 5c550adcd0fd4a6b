/**
 * `npm run test:hardening`: the hardening tests, then a short load run checked against the table.
 * A runner rather than `vitest … && tsx …` in package.json: npm appends `-- --help` (or any
 * argument) to the last command of a script line, so `--help` would have run the whole suite.
 */
import { spawn } from 'node:child_process';
import { commandProgram, exitCodes, runProgram } from '../../scripts/cli/command-program.js';

const program = commandProgram(
  'test:hardening',
  'Runs the hardening tests (test/hardening), then bench:load --short.',
  {
    ok: 'the tests pass and the stored items match the 204s',
    differences: 'a test or the check fails',
  },
)
  .argument('[filters...]', 'only the test files whose path contains one of these (vitest)')
  .option('--no-load', 'the tests only, without the load run')
  .action(async (filters, options) => {
    // The broad sweep: `npm test` runs a share of the generated cases, this runs them all.
    const tests = await run('vitest', ['run', 'test/hardening', ...filters, '--silent=false'], {
      HARDENING_SWEEP: '1',
    });
    const load =
      tests === 0 && options.load ? await run('tsx', ['bench/load/load.ts', '--short']) : 0;
    process.exitCode = outcome(tests || load);
  });

/** 1 from vitest or bench:load is a failing test or check; anything else is a breakdown. */
function outcome(code: number): number {
  if (code === 0 || code === exitCodes.differences) return code;
  return exitCodes.failed;
}

/** Runs a local binary (npm puts node_modules/.bin on the PATH) with this terminal. */
function run(
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.once('error', fail);
    child.once('exit', (code, signal) => done(code ?? (signal ? exitCodes.failed : 0)));
  });
}

await runProgram(program, 'test:hardening');
