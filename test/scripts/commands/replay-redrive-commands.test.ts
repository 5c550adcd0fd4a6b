import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { createTestTable, engineEndpoint, type TestTable } from '../../support/engines.js';
import { transaction } from '../../support/fixtures.js';
import { runCommand } from '../../support/in-process-cli.js';
import { freePort } from '../../support/local-cli.js';
import { recordOf } from '../../support/stream-records.js';

/**
 * npm run replay and npm run redrive as an operator runs them: the table on dynalite, EventBridge
 * a local HTTP stand-in speaking PutEvents' JSON protocol (the SDK's real client talks to it
 * through AWS_ENDPOINT_URL_EVENTBRIDGE), so the command's own wiring is what is tested.
 */
let table: TestTable;
let server: Server;
const putEvents: { EventBusName?: string; Detail?: string; DetailType?: string }[][] = [];
let env: Record<string, string>;
const reference = `cli-${Date.now()}`;

beforeAll(async () => {
  table = await createTestTable('dynalite');
  await new DynamoDbTransactionStore(table.client, table.tableName).putIfAbsent(
    recordOf(transaction({ reference })),
  );
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { Entries = [] } = JSON.parse(body) as { Entries?: (typeof putEvents)[number] };
      putEvents.push(Entries);
      response.setHeader('content-type', 'application/x-amz-json-1.1');
      response.end(
        JSON.stringify({
          FailedEntryCount: 0,
          Entries: Entries.map((_, index) => ({ EventId: `event-${index}` })),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = {
    AWS_ENDPOINT_URL_DYNAMODB: engineEndpoint('dynalite'),
    AWS_ENDPOINT_URL_EVENTBRIDGE: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    TABLE_NAME: table.tableName,
  };
});
afterAll(async () => {
  await table.drop();
  await new Promise((resolve) => server.close(resolve));
});

describe('npm run replay', () => {
  it('publishes the recorded transaction to the named bus and exits 0', async () => {
    const result = await runCommand('replay', [reference, '--bus', 'payments'], env);

    expect(result.stdout).toBe('Published 1 Transaction Completed event(s) to payments.\n');
    // Progress is drawn on a terminal only: a script's stderr stays empty.
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [entry] = putEvents.at(-1) ?? [];
    expect(entry).toMatchObject({ EventBusName: 'payments', DetailType: 'Transaction Completed' });
    expect(JSON.parse(entry?.Detail ?? '{}')).toMatchObject({ reference, amount: '250075' });
  });

  it('exits 1 and names a reference that holds nothing', async () => {
    const result = await runCommand('replay', ['no-such-reference', '--bus', 'payments'], env);

    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^not found\s+no-such-reference\s+no recorded transaction$/m);
    expect(result.stdout).toContain('Published 0 Transaction Completed event(s) to payments.');
  });

  it('--format jsonl gives each problem a line and the counts last; json one document', async () => {
    const args = ['no-such-reference', reference, '--bus', 'payments'];
    const jsonl = await runCommand('replay', [...args, '--format', 'jsonl'], env);
    const json = await runCommand('replay', [...args, '--format', 'json'], env);

    const lines = jsonl.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const problem = { kind: 'notFound', reference: 'no-such-reference' };
    expect(lines).toMatchObject([problem, { kind: 'summary', published: 1, notFound: 1 }]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      items: [problem],
      summary: { count: 1, published: 1, notFound: 1 },
    });
    expect([jsonl.code, json.code]).toEqual([1, 1]);
  });

  it('exits 3 when the bus cannot be reached, saying why beside the reference and in the advice', async () => {
    const unreachable = `http://127.0.0.1:${await freePort()}`;

    const result = await runCommand('replay', [reference, '--bus', 'payments'], {
      ...env,
      AWS_ENDPOINT_URL_EVENTBRIDGE: unreachable,
    });

    expect(result.code).toBe(3);
    const row = new RegExp(
      `^not published\\s+${reference}\\s+(\\w+: connect ECONNREFUSED.*)$`,
      'm',
    );
    const [cause] = row.exec(result.stdout)?.slice(1) ?? [];
    expect(cause).toMatch(/^\w+: connect ECONNREFUSED/);
    expect(result.stdout).toContain(`Run it again once the cause (${cause}) is fixed`);
  });

  it('exits 2 without a bus, or with both references and a window', async () => {
    const noBus = await runCommand('replay', [reference], env);
    const both = await runCommand(
      'replay',
      [reference, '--since', '2026-01-01', '--bus', 'b'],
      env,
    );

    expect([noBus.code, both.code]).toEqual([2, 2]);
    expect(noBus.stderr).toContain('--bus or EVENT_BUS_NAME');
    expect(both.stderr).toContain('references or --since, not both');
  });

  it('exits 2 before reading anything when --forward-to names another machine', async () => {
    const result = await runCommand(
      'replay',
      [reference, '--forward-to', 'https://events.example.com/in'],
      env,
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^replay: --forward-to https:\/\/events\.example\.com\/in is not on this machine: .*--allow-remote is given \(https only\)$/m,
    );
  });
});

describe('npm run redrive', () => {
  it('exits 2 without a queue', async () => {
    const result = await runCommand('redrive', ['--bus', 'payments'], env);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--queue or EVENTS_DLQ_URL');
  });

  it('exits 2 when --forward-to names another machine, over http even with --allow-remote', async () => {
    const remote = await runCommand('redrive', ['--forward-to', 'http://10.1.2.3/in'], env);
    const plain = await runCommand(
      'redrive',
      ['--forward-to', 'http://10.1.2.3/in', '--allow-remote'],
      env,
    );

    expect([remote.code, plain.code]).toEqual([2, 2]);
    expect(remote.stderr).toMatch(
      /^redrive: --forward-to http:\/\/10\.1\.2\.3\/in is not on this machine/m,
    );
    expect(plain.stderr).toMatch(/^redrive: --forward-to http:\/\/10\.1\.2\.3\/in: .*https only$/m);
  });
});
