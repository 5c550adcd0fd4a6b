/**
 * The local server (scripts/local: the real lambda/receiver.ts behind the API Gateway stand-in,
 * over its embedded DynamoDB or the endpoint in AWS_ENDPOINT_URL_DYNAMODB) in a process of its
 * own, so the load generator does not share its event loop. Tells the parent where it listens
 * over the IPC channel; stops on SIGTERM after finishing the callbacks in flight.
 */
import { startLocalServer } from '../../scripts/local/local-server.js';

const env = process.env;
const server = await startLocalServer({
  port: 0,
  dataDir: ':memory:',
  tableName: env.TABLE_NAME ?? 'load-transactions',
  apiKeys: env.CALLBACK_API_KEYS as string,
  hashMode: 'required',
  ...(env.AWS_ENDPOINT_URL_DYNAMODB ? { endpoint: env.AWS_ENDPOINT_URL_DYNAMODB } : {}),
});

export interface ServerReady {
  readonly url: string;
  readonly endpoint: string;
  readonly tableName: string;
}

const ready: ServerReady = {
  url: server.url,
  endpoint: server.engine.endpoint,
  tableName: server.tableName,
};
process.send?.(ready);

process.once('SIGTERM', () => {
  void server.stop().finally(() => process.exit(0));
});
