import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

/**
 * Secrets Manager and EventBridge as HTTP services that answer the one operation each the
 * functions call, in the services' JSON 1.1 protocol. There is no local engine for either; with
 * these behind the fault proxy, the SDK clients run exactly as deployed (serialization, timeouts,
 * error parsing) and the faults arrive on the network.
 */
export interface AwsStandIn {
  readonly endpoint: string;
  /** PutEvents entries received, in order. */
  readonly published: unknown[];
  /** Requests received, by operation. */
  readonly requests: Map<string, number>;
  stop(): Promise<void>;
}

export async function startAwsStandIn(
  options: { secretString?: string } = {},
): Promise<AwsStandIn> {
  const published: unknown[] = [];
  const requests = new Map<string, number>();
  const server = createServer(async (incoming, response) => {
    const body = JSON.parse((await text(incoming)) || '{}') as {
      SecretId?: string;
      Entries?: unknown[];
    };
    const operation =
      String(incoming.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() ?? '';
    requests.set(operation, (requests.get(operation) ?? 0) + 1);
    let answer: unknown;
    if (operation === 'GetSecretValue') {
      answer = {
        ARN: `arn:aws:secretsmanager:eu-central-1:123456789012:secret:${body.SecretId}`,
        Name: body.SecretId,
        SecretString: options.secretString ?? '',
        VersionId: 'v1',
      };
    } else if (operation === 'PutEvents') {
      const entries = body.Entries ?? [];
      published.push(...entries);
      answer = {
        FailedEntryCount: 0,
        Entries: entries.map(() => ({ EventId: `event-${published.length}-${Math.random()}` })),
      };
    } else {
      response.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify({ __type: 'UnknownOperationException' }));
      return;
    }
    const json = JSON.stringify(answer);
    response.writeHead(200, {
      'content-type': 'application/x-amz-json-1.1',
      'content-length': Buffer.byteLength(json),
    });
    response.end(json);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    published,
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
