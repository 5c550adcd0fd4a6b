import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbRefusalStore } from '../../../lambda/refusals/dynamodb-refusal-store.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import {
  createTestRefusalsTable,
  createTestTable,
  engineEndpoint,
  type TestTable,
  testCredentials,
  testRegion,
} from '../../support/engines.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';
import { freePort } from '../../support/local-cli.js';
import { receiverWith } from '../../support/receiver.js';

/**
 * `npm run resubmit` against a deployed refusals table (dynalite) and a receiver stand-in that
 * answers with the status a test asks for: what the operator reads, and the exit code, for each
 * kind of answer and each refusal to send.
 */
const endpoint = engineEndpoint('dynalite');
let transactions: TestTable;
let refusals: TestTable;
let receiver: Server;
let receiverUrl: string;
/** What the stand-in answers next, and what it was sent. */
let answerStatus = 204;
const received: { body: string; contentType?: string; key?: string }[] = [];
const digests: Record<'signedWrong' | 'notJson' | 'tooLarge', string> = {
  signedWrong: '',
  notJson: '',
  tooLarge: '',
};
const wrongKeyed = transaction();
const aws = {
  AWS_REGION: testRegion,
  AWS_ACCESS_KEY_ID: testCredentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: testCredentials.secretAccessKey,
};

beforeAll(async () => {
  [transactions, refusals] = await Promise.all([
    createTestTable('dynalite'),
    createTestRefusalsTable('dynalite'),
  ]);
  const receive = receiverWith(
    new DynamoDbTransactionStore(transactions.client, transactions.tableName),
    { refusals: new DynamoDbRefusalStore(refusals.client, refusals.tableName) },
  );
  expect((await receive(callbackEvent(signed(wrongKeyed, 'another-key')))).statusCode).toBe(403);
  expect((await receive(callbackEvent('{"not": json'))).statusCode).toBe(400);
  expect((await receive(callbackEvent(`"${'x'.repeat(70_000)}"`))).statusCode).toBe(413);
  const listed = await runCommand(
    'query',
    ['refused', '--table', refusals.tableName, '--endpoint', endpoint, '--format', 'json'],
    aws,
  );
  const items = JSON.parse(listed.stdout).items as { digest: string; status: number }[];
  const byStatus = (status: number) => items.find((item) => item.status === status)?.digest ?? '';
  digests.signedWrong = byStatus(403);
  digests.notJson = byStatus(400);
  digests.tooLarge = byStatus(413);

  receiver = createServer(async (request, response) => {
    received.push({
      body: await text(request),
      contentType: request.headers['content-type'],
      key: request.headers['x-api-key'] as string | undefined,
    });
    response.writeHead(answerStatus, { 'content-type': 'application/problem+json' });
    response.end(answerStatus === 204 ? undefined : JSON.stringify({ title: 'Stand-in says no' }));
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await Promise.all([transactions?.drop(), refusals?.drop()]);
});

/** `npm run resubmit -- <digest> --url <the stand-in>` with the key in CALLBACK_API_KEY. */
const resubmit = (
  digest: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
) =>
  runCommand(
    'resubmit',
    [digest, '--table', refusals.tableName, '--endpoint', endpoint, '--url', receiverUrl, ...extra],
    { ...aws, CALLBACK_API_KEY: 'resubmit-key', ...env },
  );

describe('npm run resubmit', () => {
  it('sends the kept body byte for byte with the key, and exits 0 on a 2xx', async () => {
    answerStatus = 204;
    received.length = 0;

    const result = await resubmit(digests.signedWrong);

    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `${digests.signedWrong.slice(0, 16)} (${wrongKeyed.reference}) was 403 hash-mismatch; now 204\n`,
    );
    expect(received).toEqual([
      {
        body: signed(wrongKeyed, 'another-key'),
        contentType: 'application/json',
        key: 'resubmit-key',
      },
    ]);
  });

  it('exits 1 when refused again (4xx), naming a body with no reference, sent as --content-type', async () => {
    answerStatus = 422;
    received.length = 0;

    const result = await resubmit(digests.notJson, ['--content-type', 'text/plain']);

    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(`^${digests.notJson.slice(0, 16)} \\(no reference\\) was 400 \\S+; now 422 `),
    );
    expect(received.map(({ body, contentType }) => [body, contentType])).toEqual([
      ['{"not": json', 'text/plain'],
    ]);
  });

  it('exits 3 on a 5xx: the receiver failed, the next try may pass', async () => {
    answerStatus = 503;

    const result = await resubmit(digests.signedWrong);

    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/was 403 hash-mismatch; now 503 /);
  });

  it('exits 3 and says so when nothing answers at the URL', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}/callback`;

    const result = await runCommand(
      'resubmit',
      [
        digests.signedWrong,
        '--table',
        refusals.tableName,
        '--endpoint',
        endpoint,
        '--url',
        nowhere,
      ],
      { ...aws, CALLBACK_API_KEY: 'resubmit-key' },
    );

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^resubmit failed: .*127\.0\.0\.1.*/m);
    expect(result.stdout).toBe('');
  });

  it('refuses a body kept only in part, exit 2, sending nothing', async () => {
    received.length = 0;

    const result = await resubmit(digests.tooLarge);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^resubmit: only the first \d+ of \d+ bytes of that body were kept: it cannot be sent again as it was$/m,
    );
    expect(received).toEqual([]);
  });

  it('refuses a digest no refusal has, exit 2, naming the table', async () => {
    const result = await resubmit('0123456789abcdef');

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `resubmit: no kept refusal 0123456789abcdef in table ${refusals.tableName} at ${endpoint}`,
    );
  });

  it('refuses to send to a remote URL without a key, exit 2, naming where to give it', async () => {
    const result = await runCommand(
      'resubmit',
      [digests.signedWrong, '--url', 'https://receiver.example.com/callback'],
      {},
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^resubmit: give the API key for https:\/\/receiver\.example\.com\/callback: --key-file <path> or CALLBACK_API_KEY$/m,
    );
  });

  it('refuses without --url when no local server runs, exit 2', async () => {
    const result = await runCommand('resubmit', [digests.signedWrong], {
      DATA_DIR: '/nonexistent/resubmit-data',
    });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^resubmit: no running npm start server found: pass --url <callback URL>$/m,
    );
  });
});
