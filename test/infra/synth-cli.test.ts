import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

// The CLI run a user makes, with no AWS credentials anywhere: every AWS_* variable removed,
// shared config/credentials files pointed at nothing, and the EC2 metadata lookup disabled.
function synth(context: readonly string[] = [], timeout = 230_000) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')),
  );
  const output = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
  try {
    return spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', output, ...context], {
      cwd: projectRoot,
      env: {
        ...env,
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_CONFIG_FILE: join(output, 'no-config'),
        AWS_SHARED_CREDENTIALS_FILE: join(output, 'no-credentials'),
      },
      encoding: 'utf8',
      timeout,
    });
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

test('`cdk synth` succeeds with no AWS credentials, and warns of nothing', {
  timeout: 240_000,
}, () => {
  const result = synth();
  expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  // A warning printed on every run (a deprecated property read, a cdk-nag note) teaches the
  // reader to skip the output; the only lines are the two bundling notices.
  const lines = `${result.stdout}\n${result.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('Bundling asset '));
  expect(lines).toEqual([]);
});

test.each([
  ['hashmode=required', 'Unknown context key "hashmode" (did you mean "hashMode"?)'],
  ['hashMode=sometimes', 'Invalid deployment option: "hashMode"'],
])(
  '`cdk synth -c %s` refuses in one line, without a stack',
  { timeout: 120_000 },
  (option, message) => {
    const result = synth(['-c', option], 110_000);

    expect(result.status).not.toBe(0);
    // The app's line; the CDK CLI adds its own "Subprocess exited with error 2" after it.
    const appLines = result.stderr
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.includes('Subprocess exited with error'));
    expect(appLines).toHaveLength(1);
    expect(appLines[0]).toContain(message);
    expect(result.stderr).toContain('Subprocess exited with error 2');
  },
);
