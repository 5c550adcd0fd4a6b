import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

// The CLI run a user makes, with no AWS credentials anywhere: every AWS_* variable removed,
// shared config/credentials files pointed at nothing, and the EC2 metadata lookup disabled.
test('`cdk synth` succeeds with no AWS credentials', { timeout: 240_000 }, () => {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('AWS_')),
  );
  const output = mkdtempSync(join(tmpdir(), 'cdk-synth-'));
  try {
    const result = spawnSync('npx', ['cdk', 'synth', '--quiet', '--output', output], {
      cwd: projectRoot,
      env: {
        ...env,
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_CONFIG_FILE: join(output, 'no-config'),
        AWS_SHARED_CREDENTIALS_FILE: join(output, 'no-credentials'),
      },
      encoding: 'utf8',
      timeout: 230_000,
    });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
});
