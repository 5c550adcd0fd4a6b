import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { callbackBody, sampleTransaction } from '../../scripts/gateway/gateway-callback.js';
import { type LocalServer, startLocalServer } from '../../scripts/local/server.js';
import { eventFiles } from '../../scripts/operations/events/event-files.js';
import type { DeliveryPolicy } from '../../scripts/operations/events/http-delivery.js';
import { type Engine, engineEndpoint } from './engines.js';

/** What the event-forwarding tests share: a server on either engine, callbacks, waiting. */

export const key = 'forward-test-key';
/** 2^53 + 1: a double would make it ...992. */
export const bigId = '9007199254740993';
/** Three quick tries: a dead letter within a test's patience. */
export const fast: DeliveryPolicy = {
  attempts: 3,
  firstRetryMs: 10,
  maxRetryMs: 20,
  attemptTimeoutMs: 2_000,
};

export interface Envelope {
  readonly version: string;
  readonly id: string;
  readonly 'detail-type': string;
  readonly source: string;
  readonly account: string;
  readonly time: string;
  readonly region: string;
  readonly resources: unknown[];
  readonly detail: Record<string, unknown>;
}

/** Local mode forwarding to `url`, on `engine` (DynamoDB Local through `endpoint`). */
export function startForwardingServer(
  engine: Engine,
  options: {
    readonly dataDir: string;
    readonly tableName: string;
    readonly url: string;
    readonly policy?: DeliveryPolicy;
    readonly log?: (line: string) => void;
  },
): Promise<LocalServer> {
  return startLocalServer({
    port: 0,
    dataDir: options.dataDir,
    apiKeys: key,
    tableName: options.tableName,
    ...(engine === 'dynamodb-local' && { endpoint: engineEndpoint('dynamodb-local') }),
    forwardEvents: {
      url: options.url,
      policy: options.policy ?? fast,
      pollMs: 30,
      log: options.log ?? (() => {}),
    },
  });
}

export const post = (server: LocalServer, reference: string, amount = '250075') =>
  fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: callbackBody(sampleTransaction({ id: bigId, amount, reference }), key),
  });

export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The dead-letter file's lines, parsed; none when it does not exist. */
export async function deadLetters(runDir: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(eventFiles(runDir).deadLetters, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The Standard Webhooks headers of a received event, for verifySignature. */
export function webhookHeaders(headers: Record<string, string | string[] | undefined>) {
  return Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
      name,
      String(headers[name]),
    ]),
  );
}
