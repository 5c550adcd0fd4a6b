import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRefusalStore } from '../../../lambda/refusals/dynamodb-refusal-store.js';
import { createTestRefusalsTable, engineEndpoint, type TestTable } from '../../support/engines.js';
import { exampleA, exampleB, specKey } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';

/** npm run verify on the worked examples of the hash spec, run as a user runs it. */

let dir: string;
const bodyA = exampleA.hashedText.replace('"hash":""', `"hash":"${exampleA.hash}"`);

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-'));
});

describe('npm run verify', () => {
  it('verifies example A and names the text that matched', async () => {
    const result = await runCommand('verify', [await file('a.json', bodyA), '--key', specKey], {});

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Verified: the hash matches the body as received, "hash" blanked.\n',
    );
  });

  it('verifies example B sent as raw UTF-8 through its lowercase-escaped text', async () => {
    const keyFile = await file('key.txt', `${specKey}\n`);
    const result = await runCommand(
      'verify',
      [await file('b.json', exampleB.utf8Body), '--key-file', keyFile],
      {},
    );

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('non-ASCII as lowercase \\u escapes');
  });

  it('verifies example B sent escaped, read from stdin', async () => {
    const result = await runCommand(
      'verify',
      ['-', '--key-file', await file('key2.txt', specKey)],
      {},
      exampleB.escapedBody,
    );

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('the body as received, "hash" blanked');
  });

  it('with the wrong key, exits 1 and lists each candidate digest without echoing the key', async () => {
    const wrongKey = 'not-the-gateway-key-4d0c9e6a1b2d';
    const result = await runCommand(
      'verify',
      [await file('b2.json', exampleB.utf8Body), '--key', wrongKey],
      {},
    );

    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`Not verified: the hash ${exampleB.hash}`);
    // The spec's hashed text is one of the candidates; its digest with this key is listed.
    const escaped = exampleB.utf8Body
      .replace(exampleB.hash, '')
      .replace(/[^ -~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(result.stdout).toContain(`sha256 ${sha256(escaped + wrongKey)}`);
    expect(result.stdout.match(/sha256 [0-9a-f]{64}/g)).toHaveLength(3);
    expect(result.stdout + result.stderr).not.toContain(wrongKey);
  });

  it('exits 2 on a body that is not JSON, or without a key', async () => {
    const notJson = await runCommand('verify', [await file('x.json', '{"a":'), '--key', 'k'], {});
    // A data folder without local mode's key in it: no key anywhere.
    const empty = await mkdtemp(join(tmpdir(), 'verify-no-key-'));
    const noKey = await runCommand('verify', [await file('a2.json', bodyA)], { DATA_DIR: empty });

    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('the body is not valid JSON');
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('give the key: --key-file <path> or CALLBACK_API_KEY');
  });

  it("reads the key from CALLBACK_API_KEY, or from local mode's dev key file in DATA_DIR", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'verify-local-'));
    await writeFile(join(folder, 'dev-api-key'), `${specKey}\n`, { mode: 0o600 });
    const body = await file('a3.json', bodyA);

    const fromEnvironment = await runCommand('verify', [body], { CALLBACK_API_KEY: specKey });
    const fromLocalMode = await runCommand('verify', [body], { DATA_DIR: folder });
    const deployed = await runCommand('verify', [body, '--table', 'deployed'], {
      DATA_DIR: folder,
    });

    expect(fromEnvironment.code, fromEnvironment.stderr).toBe(0);
    expect(fromLocalMode.code, fromLocalMode.stderr).toBe(0);
    // A deployed table's keys are not local mode's: no fallback to the dev key.
    expect(deployed.code).toBe(2);
  });

  it('warns in one line when the key comes as --key, and refuses --key with --key-file', async () => {
    const body = await file('a4.json', bodyA);
    const keyFile = await file('key5.txt', specKey);

    const typed = await runCommand('verify', [body, '--key', specKey], {});
    const both = await runCommand('verify', [body, '--key', specKey, '--key-file', keyFile], {});
    const missing = await runCommand('verify', [body, '--key-file', join(dir, 'absent')], {});

    expect(typed.code).toBe(0);
    expect(typed.stderr).toBe(
      "verify: warning: --key leaves the key in shell history and in other users' ps; use --key-file <path> or CALLBACK_API_KEY instead\n",
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--key-file or --key, not both');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`cannot read the key file ${join(dir, 'absent')} (ENOENT)`);
    for (const result of [typed, both, missing]) {
      expect(result.stdout + result.stderr).not.toContain(specKey);
    }
  });

  it('exits 2 on a body given where its file belongs, without echoing it', async () => {
    const result = await runCommand('verify', [bodyA], { CALLBACK_API_KEY: 'k' });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the body is read from a file');
    expect(result.stderr).not.toContain(exampleA.hash);
    expect(result.stderr.split('\n').every((line) => line.length < 120)).toBe(true);
  });

  it('names why a body file cannot be read', async () => {
    const result = await runCommand('verify', [join(dir, 'missing.json')], {
      CALLBACK_API_KEY: 'k',
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `cannot read the body ${join(dir, 'missing.json')}: no such file`,
    );
  });
});

describe('npm run verify --refusal, on a body kept with a refusal', () => {
  let table: TestTable;
  let env: Record<string, string>;
  const keep = async (body: string, kept = Buffer.from(body, 'utf8')) => {
    const bytes = Buffer.from(body, 'utf8');
    const digest = sha256(body);
    await new DynamoDbRefusalStore(table.client, table.tableName, { retentionDays: 1 }).keep({
      digest,
      body: kept,
      bodyBytes: bytes.length,
      headers: { 'Content-Type': 'application/json' },
      headersDropped: 0,
      status: 403,
      problem: 'hash-mismatch',
      receivedAt: new Date(),
      keyId: 'key-1',
      requestId: 'req-1',
      sourceIp: '203.0.113.7',
    });
    return digest;
  };

  beforeAll(async () => {
    table = await createTestRefusalsTable('dynalite');
    env = {
      AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint('dynalite'),
      REFUSALS_TABLE_NAME: table.tableName,
    };
  });
  afterAll(() => table.drop());

  it('reads the kept body by its digest prefix and explains its hash', async () => {
    const digest = await keep(exampleB.utf8Body);
    const keyFile = await file('key3.txt', specKey);

    const right = await runCommand(
      'verify',
      ['--refusal', digest.slice(0, 16), '--key-file', keyFile],
      env,
    );
    const wrong = await runCommand(
      'verify',
      ['--refusal', digest, '--key', 'another-key-0000'],
      env,
    );

    expect(right.code).toBe(0);
    expect(right.stdout).toContain('non-ASCII as lowercase \\u escapes');
    expect(wrong.code).toBe(1);
    expect(wrong.stdout.match(/sha256 [0-9a-f]{64}/g)).toHaveLength(3);
  });

  it('exits 2 when only part of the body was kept, or none is kept under that digest', async () => {
    const digest = await keep(bodyA, Buffer.from(bodyA.slice(0, 40), 'utf8'));
    const keyFile = await file('key4.txt', specKey);

    const part = await runCommand('verify', ['--refusal', digest, '--key-file', keyFile], env);
    const absent = await runCommand(
      'verify',
      ['--refusal', 'f'.repeat(64), '--key-file', keyFile],
      env,
    );
    const both = await runCommand('verify', ['-', '--refusal', digest, '--key-file', keyFile], env);

    expect(part.code).toBe(2);
    expect(part.stderr).toContain('only the first 40 of');
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain(`no kept refusal ${'f'.repeat(64)}`);
    expect(both.code).toBe(2);
  });
});
