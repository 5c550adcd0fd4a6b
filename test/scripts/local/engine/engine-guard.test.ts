import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  PutItemCommand,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTableInput } from '../../../../scripts/local/engine/create-table-input.js';
import { startDynalite } from '../../../../scripts/local/engine/dynalite.js';
import { newEngineCredentials } from '../../../../scripts/local/engine/engine-credentials.js';
import type { RunningEngine } from '../../../../scripts/local/engine/local-engine.js';

/**
 * Local mode's embedded engine as another local user, or a web page in the owner's browser, meets
 * it: only requests signed with this run's credentials reach dynalite. Each refusal is checked by
 * what the owner sees afterwards: the table and its items unchanged.
 */
describe("local mode's engine (dynalite behind the signature check)", () => {
  const credentials = newEngineCredentials();
  const tableName = 'guarded-transactions';
  const item = { reference: { S: 'ref-1' }, record: { S: 'transaction' } };
  let engine: RunningEngine;
  let owner: DynamoDBClient;
  const clientWith = (accessKeyId: string, secretAccessKey: string) =>
    new DynamoDBClient({
      endpoint: engine.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId, secretAccessKey },
      maxAttempts: 1,
    });
  const ownerSees = async () => {
    const { Items } = await owner.send(new ScanCommand({ TableName: tableName }));
    return Items;
  };

  beforeAll(async () => {
    engine = await startDynalite(undefined, { credentials });
    owner = clientWith(credentials.accessKeyId, credentials.secretAccessKey);
    await owner.send(new CreateTableCommand(createTableInput(tableName)));
    await owner.send(new PutItemCommand({ TableName: tableName, Item: item }));
  });
  afterAll(async () => {
    owner.destroy();
    await engine.stop();
  });

  it('serves the owner, who signs with the run credentials', async () => {
    expect(await ownerSees()).toEqual([item]);
  });

  it("serves the owner's body of many reads (a 350 KB item), checked whole before dynalite", async () => {
    const large = { reference: { S: 'ref-large' }, record: { S: 'x'.repeat(350 * 1024) } };
    const table = 'guarded-large-items';
    await owner.send(new CreateTableCommand(createTableInput(table)));

    await owner.send(new PutItemCommand({ TableName: table, Item: large }));

    const { Items } = await owner.send(new ScanCommand({ TableName: table }));
    expect(Items).toEqual([large]);
  });

  describe.each([
    ['other credentials', () => newEngineCredentials(), 'UnrecognizedClientException'],
    [
      "the run's access key id with a wrong secret",
      () => ({ ...newEngineCredentials(), accessKeyId: credentials.accessKeyId }),
      'InvalidSignatureException',
    ],
    [
      'the credentials local engines used to take',
      () => ({ accessKeyId: 'local', secretAccessKey: 'local' }),
      'UnrecognizedClientException',
    ],
  ])('a client signing with %s', (_, pair, exception) => {
    let stranger: DynamoDBClient;
    beforeAll(() => {
      const { accessKeyId, secretAccessKey } = pair();
      stranger = clientWith(accessKeyId, secretAccessKey);
    });
    afterAll(() => stranger.destroy());

    it('reads nothing: Scan and ListTables are refused', async () => {
      await expect(stranger.send(new ScanCommand({ TableName: tableName }))).rejects.toThrow(
        expect.objectContaining({ name: exception }),
      );
      await expect(stranger.send(new ListTablesCommand({}))).rejects.toThrow(
        expect.objectContaining({ name: exception }),
      );
    });

    it('writes nothing: a forged PutItem and a DeleteTable leave the table as it was', async () => {
      const forged = {
        ...item,
        reference: { S: 'forged' },
        amount: { N: '99999999' },
        hashResult: { S: 'verified' },
      };
      await expect(
        stranger.send(new PutItemCommand({ TableName: tableName, Item: forged })),
      ).rejects.toThrow(expect.objectContaining({ name: exception }));
      await expect(stranger.send(new DeleteTableCommand({ TableName: tableName }))).rejects.toThrow(
        expect.objectContaining({ name: exception }),
      );

      expect(await ownerSees()).toEqual([item]);
      const { Table } = await owner.send(new DescribeTableCommand({ TableName: tableName }));
      expect(Table?.TableStatus).toBe('ACTIVE');
    });
  });

  it('refuses an unsigned request, and one with a made-up Authorization and X-Amz-Date', async () => {
    const scan = (headers: Record<string, string>) =>
      fetch(engine.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.0',
          'x-amz-target': 'DynamoDB_20120810.Scan',
          ...headers,
        },
        body: JSON.stringify({ TableName: tableName }),
      });

    const unsigned = await scan({});
    const madeUp = await scan({
      authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`,
      'x-amz-date': new Date().toISOString().replace(/[-:]|\.\d{3}/g, ''),
    });

    expect(unsigned.status).toBe(400);
    expect(await unsigned.text()).toContain('MissingAuthenticationTokenException');
    expect(madeUp.status).toBe(400);
    const text = await madeUp.text();
    expect(text).toContain('InvalidSignatureException');
    expect(text).not.toContain('ref-1');
  });

  it('gives a cross-origin preflight no allowance', async () => {
    const preflight = await fetch(engine.endpoint, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://attacker.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-amz-date,x-amz-target',
      },
    });

    expect(preflight.status).toBe(403);
    const allowances = [...preflight.headers.keys()].filter((name) =>
      name.startsWith('access-control-'),
    );
    expect(allowances).toEqual([]);
  });

  it('refuses a request that carries an Origin even when signed with the run credentials', async () => {
    const fromPage = new DynamoDBClient({
      endpoint: engine.endpoint,
      region: 'us-east-1',
      credentials,
      maxAttempts: 1,
    });
    fromPage.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { headers: Record<string, string> };
        request.headers.origin = 'http://127.0.0.1:3000';
        return next(args);
      },
      { step: 'build' },
    );

    await expect(fromPage.send(new ScanCommand({ TableName: tableName }))).rejects.toThrow(
      expect.objectContaining({ name: 'AccessDeniedException' }),
    );
    fromPage.destroy();
  });
});
