/**
 * What a refused delivery costs in DynamoDB, through the real handler on both local engines:
 * requests sent (counted at the SDK client) and write units (the engine's `ConsumedCapacity`,
 * asked for on every call), beside an accepted callback in the same run.
 *
 *   npx tsx bench/numbers/refusal-cost.ts
 */
import {
  CreateTableCommand,
  type DynamoDBClient,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { staticKeys } from '../../lambda/auth/accepted-keys.js';
import { receiveCallback } from '../../lambda/callback/receive-callback.js';
import { callbackHttpHandler } from '../../lambda/http/callback-http-handler.js';
import { createLogger, createMetrics } from '../../lambda/observability/telemetry.js';
import { DynamoDbRefusalStore } from '../../lambda/refusals/dynamodb-refusal-store.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import { lambdaContext } from '../../scripts/local/lambda-context.js';
import { createTableInput, refusalsTableInput } from '../../scripts/shared/create-table-input.js';
import { signedBody } from '../../scripts/shared/gateway-signer.js';
import { apiGatewayEvent } from '../support/api-gateway-event.js';
import { benchKey, callbackFields, freshReference } from '../support/callbacks.js';
import { type EngineName, engineClient, engineNames, startEngine } from '../support/engines.js';

process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED = 'true';

/** Records each call's name and the write units the engine reports for it. */
function meter(client: DynamoDBClient) {
  let calls: { name: string; units: number }[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ReturnConsumedCapacity?: string };
      input.ReturnConsumedCapacity = 'TOTAL';
      const name = String(context.commandName).replace(/Command$/, '');
      try {
        const output = await next(args);
        const consumed = (output.output as { ConsumedCapacity?: { CapacityUnits?: number } })
          .ConsumedCapacity;
        calls.push({ name, units: consumed?.CapacityUnits ?? Number.NaN });
        return output;
      } catch (error) {
        calls.push({ name, units: Number.NaN });
        throw error;
      }
    },
    { step: 'initialize', name: 'refusal-cost-meter' },
  );
  return {
    take() {
      const taken = calls;
      calls = [];
      return taken;
    },
  };
}

async function measure(engineName: EngineName): Promise<string[]> {
  const engine = await startEngine(engineName);
  const client = engineClient(engine.endpoint);
  try {
    const suffix = `${process.pid}-${Date.now()}`;
    const tables = { transactions: `cost-${suffix}`, refusals: `cost-${suffix}-refusals` };
    await client.send(new CreateTableCommand(createTableInput(tables.transactions)));
    await client.send(new CreateTableCommand(refusalsTableInput(tables.refusals)));
    for (const TableName of Object.values(tables)) {
      await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName });
    }
    const handler = callbackHttpHandler({
      keys: staticKeys([benchKey]),
      receive: receiveCallback({
        store: new DynamoDbTransactionStore(client, tables.transactions),
        hashMode: 'if-present',
      }),
      refusals: new DynamoDbRefusalStore(client, tables.refusals),
      logger: createLogger(),
      metrics: createMetrics(),
    });
    const metered = meter(client);

    const invalid = signedBody({ ...callbackFields(freshReference()), currency: 'usd' }, benchKey);
    const oversized = `{"padding":"${'x'.repeat(70 * 1024)}"}`;
    const nearLimit = signedBody(
      { ...callbackFields(freshReference()), currency: 'usd', message: 'm'.repeat(60 * 1024) },
      benchKey,
    );
    const scenarios: [string, string, { apiKey?: string; contentType?: string }][] = [
      [
        'accepted callback (for comparison)',
        signedBody(callbackFields(freshReference()), benchKey),
        { apiKey: benchKey },
      ],
      ['401 wrong key', invalid, { apiKey: 'not-a-key' }],
      ['422, first delivery (~330 B body)', invalid, { apiKey: benchKey }],
      ['422, same body again', invalid, { apiKey: benchKey }],
      [
        '415 text/plain (~330 B body)',
        `${invalid} `,
        { apiKey: benchKey, contentType: 'text/plain' },
      ],
      ['422, 60 KiB body, first delivery', nearLimit, { apiKey: benchKey }],
      ['422, 60 KiB body, again', nearLimit, { apiKey: benchKey }],
      ['413, 70 KiB body (8 KiB kept)', oversized, { apiKey: benchKey }],
    ];
    const rows: string[] = [];
    for (const [name, body, options] of scenarios) {
      const response = await handler(
        apiGatewayEvent(body, options),
        lambdaContext('refusal-cost', 10_000),
      );
      const calls = metered.take();
      const units = calls.reduce((sum, call) => sum + call.units, 0);
      rows.push(
        `| ${engineName} | ${name} | ${response.statusCode} | ${calls.map((call) => call.name).join(', ') || 'none'} | ${Number.isNaN(units) ? 'not reported' : units} |`,
      );
    }
    return rows;
  } finally {
    client.destroy();
    await engine.stop();
  }
}

const rows: string[] = [];
for (const name of engineNames) rows.push(...(await measure(name)));
console.log('| engine | delivery | status | DynamoDB requests | write units |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(row);
