import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../lambda/json/json-text.js';
import { transaction } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';
import { dataFolder, freePort, startServer } from '../../support/local-cli.js';

/**
 * A conflict settled in local mode as an operator meets it: `npm start`, two deliveries of one
 * reference, `query conflicts`, `settle` through the running server's engine, then the gateway's
 * redelivery of the accepted content is a duplicate. Then with the server stopped, `query get`
 * opens the data folder itself and shows the same history.
 */
const key = 'settle-e2e-5d1c9a7e52b84d0c9e6a1b2d';

describe('settling a conflict in local mode', () => {
  const folder = dataFolder('settle-local-');

  it('corrects a transaction through the running server, and the history survives a restart', async () => {
    const env = { DATA_DIR: folder.path, CALLBACK_API_KEYS: key, PORT: String(await freePort()) };
    const server = await startServer(env);
    const post = async (fields: Record<string, unknown>) =>
      (
        await fetch(server.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key },
          body: stringifyJson(fields as Parameters<typeof stringifyJson>[0]),
        })
      ).status;
    const stored = transaction({ amount: 700 });
    const corrected = { ...stored, amount: 750 };
    const reference = String(stored.reference);
    expect([await post(stored), await post(corrected)]).toEqual([204, 409]);

    const conflicts = await runCommand('query', ['conflicts', '--format', 'jsonl'], env);
    expect(conflicts.code, conflicts.stderr).toBe(0);
    expect(JSON.parse(conflicts.stdout)).toMatchObject({
      reference,
      differences: [{ field: 'amount', stored: '700', received: '750' }],
    });
    const settled = await runCommand(
      'settle',
      [reference, '--accept', 'received', '--reason', 'OPS-9 amount corrected'],
      env,
    );
    expect(settled.code, settled.stderr).toBe(0);
    expect([await post(corrected), await post(stored)]).toEqual([204, 409]);
    await server.stop();

    const got = await runCommand('query', ['get', reference, '--format', 'json'], env);
    expect(got.code, got.stderr).toBe(0);
    const shown = JSON.parse(got.stdout);
    expect(shown.transaction.amount).toBe(750);
    expect(shown.history.map((version: { by: string }) => version.by)).toEqual([
      'gateway',
      `local:${userInfo().username}`,
    ]);
  }, 180_000);
});
