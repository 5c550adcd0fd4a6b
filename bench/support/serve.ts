/**
 * One receiver behind the local API Gateway stand-in, in a process of its own so the load
 * generator does not share its event loop. `ours` is the project's local server
 * (scripts/local/local-server.ts, the real receiver, over AWS_ENDPOINT_URL_DYNAMODB or its
 * embedded engine in memory); `baseline` is the baseline's Lambda entry behind the same
 * HTTP-to-event adapter. Configuration comes from the environment; where it listens is written to
 * file descriptor 3 once it does (stdout carries the logs). Stops on SIGTERM after the callbacks
 * in flight.
 */
import { writeSync } from 'node:fs';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { HashMode } from '../../lambda/config/config.js';
import { callbackResource, startGatewayServer } from '../../scripts/local/gateway-server.js';
import { startLocalServer } from '../../scripts/local/local-server.js';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>;

/** What the parent learns once the server listens (see server-process.ts). */
export interface ServerReady {
  readonly url: string;
  /** The DynamoDB endpoint ours writes to. */
  readonly endpoint?: string;
  readonly tableName?: string;
}

const subject = process.argv[2];
const env = process.env;

async function serve(): Promise<ServerReady & { stop(): Promise<void> }> {
  if (subject === 'ours') {
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
  if (subject === 'baseline') {
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
  throw new Error(`unknown subject ${subject}: expected ours or baseline`);
}

const { stop, ...ready } = await serve();
writeSync(3, `${JSON.stringify(ready)}\n`);
process.once('SIGTERM', () => {
  void stop().finally(() => process.exit(0));
});
