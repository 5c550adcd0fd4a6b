import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineEndpoint, testCredentials, testRegion } from '../../support/engines.js';
import { runCommand } from '../../support/in-process-cli.js';

/**
 * Where a tool reads (--table, --endpoint, else local mode) and what it says when the table is
 * not there or the engine refuses its credentials: through `npm run query -- get`.
 */
const aws = {
  AWS_REGION: testRegion,
  AWS_ACCESS_KEY_ID: testCredentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: testCredentials.secretAccessKey,
};

/**
 * An engine that refuses every request's credentials, as local mode's embedded engine answers a
 * tool signed with another run's: no real engine refuses on demand.
 */
let refusing: Server;
let refusingUrl: string;
beforeAll(async () => {
  refusing = createServer((_request, response) => {
    response.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(
      JSON.stringify({
        __type: 'com.amazonaws.dynamodb.v20120810#UnrecognizedClientException',
        message: 'The security token included in the request is invalid.',
      }),
    );
  });
  refusing.listen(0, '127.0.0.1');
  await once(refusing, 'listening');
  refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
});
afterAll(async () => {
  refusing.closeAllConnections();
  await new Promise((resolve) => refusing.close(resolve));
});

describe('a tool reading a table', () => {
  it('names a missing deployed table (--table) by where it looked, exit 3', async () => {
    // No --endpoint: the SDK's own AWS_ENDPOINT_URL stands for AWS.
    const result = await runCommand('query', ['get', 'r-1', '--table', 'no-such-table'], {
      ...aws,
      AWS_ENDPOINT_URL: engineEndpoint('dynalite'),
    });

    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      'query failed: No transactions table no-such-table in table no-such-table.\n',
    );
  });

  it('names a missing table at an --endpoint, with local mode’s table name, exit 3', async () => {
    const result = await runCommand(
      'query',
      ['get', 'r-1', '--endpoint', engineEndpoint('dynalite')],
      { ...aws, TABLE_NAME: 'no-such-local-table' },
    );

    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `query failed: No transactions table no-such-local-table in table no-such-local-table at ${engineEndpoint('dynalite')}.\n`,
    );
  });

  it('explains refused credentials on a local engine: the same DATA_DIR, no --endpoint', async () => {
    const result = await runCommand('query', ['get', 'r-1', '--endpoint', refusingUrl], aws);

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      new RegExp(
        `^query failed: table callback-transactions at ${refusingUrl} refused this tool's credentials\\. .*run this with the same DATA_DIR .* and without --endpoint\\.\\n$`,
      ),
    );
  });

  it('reports a deployed table refusing the credentials as the engine says it, exit 3', async () => {
    const result = await runCommand(
      'query',
      ['get', 'r-1', '--table', 'deployed', '--endpoint', refusingUrl],
      aws,
    );

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /^query failed: .*The security token included in the request is invalid\./m,
    );
    expect(result.stderr).not.toContain('DATA_DIR');
  });
});
