/**
 * One receiver behind the local API Gateway stand-in, in a process of its own so the load
 * generator does not share its event loop. `ours` is the project's local server
 * (scripts/local/local-server.ts, the real lambda/receiver.ts); `baseline` is the baseline's
 * Lambda entry behind the same HTTP-to-event adapter. Configuration comes from the environment;
 * the URL is written to file descriptor 3 once the server listens (stdout carries the logs).
 */
import { writeSync } from 'node:fs';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { callbackResource } from '../../scripts/local/api-gateway-routes.js';
import { startGatewayServer } from '../../scripts/local/gateway-server.js';
import { startLocalServer } from '../../scripts/local/local-server.js';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>;

const subject = process.argv[2];
const env = process.env;

async function serve(): Promise<{ url: string; stop(): Promise<void> }> {
  if (subject === 'ours') {
    const server = await startLocalServer({
      port: 0,
      dataDir: ':memory:',
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB as string,
      tableName: env.TABLE_NAME as string,
      apiKeys: env.CALLBACK_API_KEYS as string,
    });
    return { url: server.url, stop: () => server.stop() };
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

const server = await serve();
writeSync(3, `${JSON.stringify({ url: server.url })}\n`);
process.once('SIGTERM', () => {
  void server.stop().finally(() => process.exit(0));
});
