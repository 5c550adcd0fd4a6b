/**
 * One receiver behind the local API Gateway stand-in, in a process of its own so the load
 * generator does not share its event loop: `ours` is local mode's server (the real receiver),
 * `baseline` the baseline's Lambda entry behind the same HTTP-to-event adapter. Configured by the
 * environment; writes where it listens to file descriptor 3 (stdout carries the logs).
 */
import { writeSync } from 'node:fs';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { HashMode } from '../../lambda/config/config.js';
import { callbackResource, startGatewayServer } from '../../scripts/local/gateway-server.js';
import { startLocalServer } from '../../scripts/local/local-server.js';

/** What the parent learns once the server listens. */
export interface ServerReady {
  readonly url: string;
  /** Where ours writes, to check the table after a load run. */
  readonly endpoint?: string;
  readonly tableName?: string;
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>;
const env = process.env;

async function serve(): Promise<ServerReady & { stop(): Promise<void> }> {
  if (process.argv[2] === 'ours') {
    const server = await startLocalServer({
      port: 0,
      dataDir: ':memory:',
      apiKeys: env.CALLBACK_API_KEYS as string,
      ...(env.TABLE_NAME ? { tableName: env.TABLE_NAME } : {}),
      ...(env.AWS_ENDPOINT_URL_DYNAMODB ? { endpoint: env.AWS_ENDPOINT_URL_DYNAMODB } : {}),
      ...(env.HASH_MODE ? { hashMode: env.HASH_MODE as HashMode } : {}),
    });
    return {
      url: server.url,
      endpoint: server.engine.endpoint,
      tableName: server.tableName,
      stop: () => server.stop(),
    };
  }
  const { handler } = (await import('../baseline/handler.js')) as { handler: Handler };
  const gateway = await startGatewayServer({
    invoke: handler,
    host: '127.0.0.1',
    port: 0,
    stage: 'local',
  });
  return {
    url: `http://127.0.0.1:${gateway.port}${callbackResource}`,
    stop: () => gateway.close(),
  };
}

const { stop, ...ready } = await serve();
writeSync(3, `${JSON.stringify(ready)}\n`);
process.once('SIGTERM', () => {
  void stop().finally(() => process.exit(0));
});
