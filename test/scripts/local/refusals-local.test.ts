import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../lambda/json/json-text.js';
import { callbackBody, sampleTransaction } from '../../../scripts/gateway/gateway-callback.js';
import { transaction } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';
import { postCallback, startServer } from '../../support/local-cli.js';
import { localDataFolder } from '../../support/local-data-folder.js';

/**
 * A refusal in local mode as an operator meets it: a delivery refused for want of a hash is kept,
 * `query refused` shows it, and after the fix (hash no longer required) `resubmit` sends the
 * same bytes again and they are recorded.
 */
const key = 'refusals-e2e-5d1c9a7e52b84d0c9e6a1b2d';

describe('refusals in local mode (query refused, resubmit)', () => {
  const folder = localDataFolder('refusals-local-');
  const fields = transaction();
  const body = stringifyJson(fields);

  it('keeps a delivery refused 403, lists it, and records it when resubmitted after the fix', async () => {
    const env = await folder.env({ CALLBACK_API_KEYS: key });
    const strict = await startServer({ ...env, HASH_MODE: 'required' });
    const refused = await postCallback(strict.url, key, body);
    expect(refused.status).toBe(403);

    const listed = await runCommand('query', ['refused', '--format', 'json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const [kept] = (
      JSON.parse(listed.stdout) as { items: { digest: string; body: string; problem: string }[] }
    ).items;
    expect(kept).toMatchObject({ body, problem: 'hash-missing', status: 403 });
    const table = await runCommand(
      'query',
      ['refused', '--reference', String(fields.reference)],
      env,
    );
    expect(table.stdout).toContain('hash-missing');
    expect(table.stdout).toContain('1 kept refusal');

    await strict.stop();
    const fixed = await startServer({ ...env, HASH_MODE: 'if-present' });
    const resubmitted = await runCommand('resubmit', [kept?.digest.slice(0, 16) ?? ''], env);
    expect(resubmitted.code, resubmitted.stderr).toBe(0);
    expect(resubmitted.stdout).toContain('was 403 hash-missing; now 204 recorded');

    const got = await runCommand(
      'query',
      ['get', String(fields.reference), '--format', 'json'],
      env,
    );
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout).transaction.rawBody).toBe(body);
    await fixed.stop();
  }, 120_000);

  it('verify --refusal finds the dev key npm start saved, as simulate and resubmit do', async () => {
    const ownDir = `${folder.path}-dev-key`;
    const own = await folder.env({ DATA_DIR: ownDir });
    const server = await startServer(own);
    const devKey = (await readFile(join(ownDir, 'dev-api-key'), 'utf8')).trim();
    const body = callbackBody(sampleTransaction({ currency: 'lira' }), devKey);
    const refused = await postCallback(server.url, devKey, body);
    expect(refused.status).toBe(422);
    const listed = await runCommand('query', ['refused', '--format', 'json'], own);
    const [kept] = (JSON.parse(listed.stdout) as { items: { digest: string }[] }).items;

    const verified = await runCommand('verify', ['--refusal', kept?.digest ?? ''], own);

    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^Verified: the hash matches/);
    await server.stop();
    await rm(ownDir, { recursive: true, force: true });
  }, 120_000);
});
