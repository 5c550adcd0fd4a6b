import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../lambda/json/json-text.js';
import { callbackBody, sampleTransaction } from '../../../scripts/gateway/gateway-callback.js';
import { transaction } from '../../support/fixtures.js';
import {
  dataFolder,
  freePort,
  postCallback,
  runScript,
  type ServerProcess,
  startServer,
} from '../../support/local-cli.js';

/**
 * A refusal in local mode as an operator meets it: a delivery refused for want of a hash is kept,
 * `query refused` shows it, and after the fix (hash no longer required) `resubmit` sends the
 * same bytes again and they are recorded.
 */
const key = 'refusals-e2e-5d1c9a7e52b84d0c9e6a1b2d';

describe('refusals in local mode (query refused, resubmit)', () => {
  const folder = dataFolder('refusals-local-');
  let env: Record<string, string>;
  let server: ServerProcess | undefined;
  const fields = transaction();
  const body = stringifyJson(fields);

  beforeAll(async () => {
    env = { DATA_DIR: folder.path, CALLBACK_API_KEYS: key, PORT: String(await freePort()) };
  });

  it('keeps a delivery refused 403, lists it, and records it when resubmitted after the fix', async () => {
    server = await startServer({ ...env, HASH_MODE: 'required' });
    const refused = await postCallback(server.url, key, body);
    expect(refused.status).toBe(403);

    const listed = await runScript('query', ['refused', '--format', 'json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const [kept] = (
      JSON.parse(listed.stdout) as { items: { digest: string; body: string; problem: string }[] }
    ).items;
    expect(kept).toMatchObject({ body, problem: 'hash-missing', status: 403 });
    const table = await runScript(
      'query',
      ['refused', '--reference', String(fields.reference)],
      env,
    );
    expect(table.stdout).toContain('hash-missing');
    expect(table.stdout).toContain('1 kept refusal');

    await server.stop();
    server = await startServer({ ...env, HASH_MODE: 'if-present' });
    const resubmitted = await runScript('resubmit', [kept?.digest.slice(0, 16) ?? ''], env);
    expect(resubmitted.code, resubmitted.stderr).toBe(0);
    expect(resubmitted.stdout).toContain('was 403 hash-missing; now 204 recorded');

    const got = await runScript(
      'query',
      ['get', String(fields.reference), '--format', 'json'],
      env,
    );
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout).transaction.rawBody).toBe(body);
    await server.stop();
  }, 120_000);

  it('verify --refusal finds the dev key npm start saved, as simulate and resubmit do', async () => {
    const own = { DATA_DIR: `${folder.path}-dev-key`, PORT: String(await freePort()) };
    server = await startServer(own);
    const devKey = (await readFile(join(own.DATA_DIR, 'dev-api-key'), 'utf8')).trim();
    const body = callbackBody(sampleTransaction({ currency: 'lira' }), devKey);
    const refused = await postCallback(server.url, devKey, body);
    expect(refused.status).toBe(422);
    const listed = await runScript('query', ['refused', '--format', 'json'], own);
    const [kept] = (JSON.parse(listed.stdout) as { items: { digest: string }[] }).items;

    const verified = await runScript('verify', ['--refusal', kept?.digest ?? ''], own);

    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^Verified: the hash matches/);
    await server.stop();
    await rm(own.DATA_DIR, { recursive: true, force: true });
  }, 120_000);
});
