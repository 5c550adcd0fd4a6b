import { once } from 'node:events';
import { type AddressInfo, connect, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalConsoleParts, startLocalConsole } from '../../../scripts/local/local-console.js';
import { consoleRequest } from '../../support/console-request.js';
import {
  createTestRefusalsTable,
  createTestTable,
  engineClientConfig,
  type TestTable,
} from '../../support/engines.js';
import { cookieOf } from '../../support/raw-http.js';

/**
 * `npm start`'s console as local mode starts it (startLocalConsole): over local mode's tables,
 * with its header saying where the data lives, and a clear word when its port is taken.
 */
describe('startLocalConsole', () => {
  let table: TestTable;
  let refusals: TestTable;
  let parts: LocalConsoleParts;
  beforeAll(async () => {
    table = await createTestTable('dynalite');
    refusals = await createTestRefusalsTable('dynalite');
    parts = {
      connection: engineClientConfig('dynalite'),
      tableName: table.tableName,
      refusalsTableName: refusals.tableName,
      where: 'in memory',
      receiver: { url: 'http://127.0.0.1:9/callback', apiKey: 'local-console-key' },
    };
  });
  afterAll(async () => {
    await table.drop();
    await refusals.drop();
  });

  it("serves local mode's tables with where they live, until closed", async () => {
    const local = await startLocalConsole(parts, {});
    const { origin } = new URL(local.console.url);
    try {
      const cookie = cookieOf(await consoleRequest(local.console.url)) as string;
      const page = await consoleRequest(`${origin}/transactions`, { headers: { cookie } });

      expect(page.status).toBe(200);
      expect(page.body).toContain(`Local mode: table ${table.tableName}, in memory`);
    } finally {
      await local.close();
    }
    // Its port is let go: a new connection is refused.
    const probe = connect(local.console.port, '127.0.0.1');
    await expect(once(probe, 'connect')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('says which setting to change when its port is taken', async () => {
    const squatter = createServer().listen(0, '127.0.0.1');
    await once(squatter, 'listening');
    const { port } = squatter.address() as AddressInfo;
    try {
      await expect(startLocalConsole(parts, { port })).rejects.toThrow(
        `The console's port ${port} is in use: set CONSOLE_PORT (or --console-port) to a free port, or 0 for any.`,
      );
    } finally {
      squatter.close();
    }
  });

  it('reports any other failure to listen as it is', async () => {
    await expect(startLocalConsole(parts, { port: 70_000 })).rejects.toMatchObject({
      code: 'ERR_SOCKET_BAD_PORT',
    });
  });
});
