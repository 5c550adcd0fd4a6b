import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { signedBody } from '../../scripts/gateway/gateway-signer.js';
import { localDynamoDbClient } from '../../scripts/local/engine/local-engine.js';
import type { ResultRow } from '../report.js';
import {
  apiGatewayEvent,
  benchKey,
  callbackFields,
  freshReference,
} from '../support/deliveries.js';
import { createBenchTables, type Engine } from '../support/engines.js';
import { silenceOutput } from '../support/silence-output.js';
import { dynamoDbSubjects, type SubjectName, subjectNames } from '../support/subjects.js';

/** Deliveries of one reference, in this order: the table has a row for each. */
const sequence = {
  new: 'new callback',
  duplicate: 'identical duplicate',
  conflict: 'conflict (same reference, other content)',
  // A sender retrying the conflicting content: it must stay refused, the record unchanged.
  'conflict again': 'the conflicting delivery again',
  // And the first content once more: still the recorded one, so still a duplicate.
  'duplicate after conflicts': 'the first content again, after the conflicts',
};

type Request = { body: string; apiKey: string; contentType?: string };

/** The sequence, then refusals (each its own reference) to show what keeping them costs. */
function deliveries(): Record<string, Request> {
  const fields = callbackFields(freshReference());
  const signed = (body: typeof fields) => ({ body: signedBody(body, benchKey), apiKey: benchKey });
  const invalid = signed({ ...callbackFields(freshReference()), currency: 'usd' });
  const long = {
    ...callbackFields(freshReference()),
    currency: 'usd',
    message: 'm'.repeat(61_440),
  };
  return {
    new: signed(fields),
    duplicate: signed(fields),
    conflict: signed({ ...fields, amount: 1 }),
    'conflict again': signed({ ...fields, amount: 1 }),
    'duplicate after conflicts': signed(fields),
    'wrong key': { ...signed(callbackFields(freshReference())), apiKey: 'not-a-key' },
    'invalid (~330 B)': invalid,
    'invalid again': invalid,
    'text/plain': { ...invalid, body: `${invalid.body} `, contentType: 'text/plain' },
    'invalid (60 KiB)': signed(long),
    '70 KiB body': { body: `{"padding":"${'x'.repeat(71_680)}"}`, apiKey: benchKey },
  };
}

/** Every command sent through `client`, with the write units the engine reports for it. */
function meter(client: DynamoDBClient) {
  const calls: { name: string; units: number }[] = [];
  client.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const call = { name: String(context.commandName).replace(/Command$/, ''), units: 0 };
      calls.push(call);
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: { CapacityUnits?: number } };
      call.units = output.ConsumedCapacity?.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name: 'bench-meter' },
  );
  return () => calls.splice(0);
}

type RequestCount = Awaited<ReturnType<typeof countRequests>>[number];

/**
 * Each delivery through both receivers on one engine, counted at the client they share (a
 * middleware at the initialize step sees each command once: the SDK's retries come later); the
 * statuses show whether both give each delivery the same outcome.
 */
export async function countRequests(engine: Engine) {
  const client = localDynamoDbClient(engine.endpoint);
  const restore = silenceOutput();
  try {
    const subjects = dynamoDbSubjects(client, await createBenchTables(engine.endpoint));
    const take = meter(client);
    const counts = [];
    for (const subject of subjectNames) {
      for (const [delivery, request] of Object.entries(deliveries())) {
        const { statusCode } = await subjects[subject](apiGatewayEvent(request.body, request));
        const calls = take();
        counts.push({
          engine: engine.name,
          subject,
          delivery,
          status: statusCode,
          requests: calls.length,
          commands: calls.map((call) => call.name),
          writeUnits: calls.reduce((sum, call) => sum + call.units, 0),
        });
      }
    }
    return counts;
  } finally {
    restore();
    client.destroy();
  }
}

const find = (
  counts: readonly RequestCount[],
  engine: string,
  delivery: string,
  subject: SubjectName,
) => counts.find((c) => c.engine === engine && c.delivery === delivery && c.subject === subject);

export function requestRows(counts: readonly RequestCount[]): ResultRow[] {
  return [...new Set(counts.map((count) => count.engine))].flatMap((engine) =>
    Object.entries(sequence).map(([delivery, label]) => {
      const [ours, baseline] = subjectNames.map(
        (s) => find(counts, engine, delivery, s)?.requests ?? Number.NaN,
      );
      const targeted =
        engine === 'DynamoDB Local' && (delivery === 'new' || delivery === 'duplicate');
      return {
        section: 'DynamoDB requests per callback' as const,
        metric: `${label}, ${engine}`,
        unit: 'requests',
        ours: ours as number,
        baseline: baseline as number,
        ...(targeted ? { target: { text: '= 1', met: ours === 1 } } : {}),
      };
    }),
  );
}

/** What each receiver answered: the same deliveries in the same order, so a differing status is behaviour. */
export function outcomeTables(counts: readonly RequestCount[]): string {
  return [...new Set(counts.map((count) => count.engine))]
    .map((engine) => {
      const rows = [...new Set(counts.map((c) => c.delivery))].map((delivery) => {
        const cells = subjectNames.map((subject) => {
          const c = find(counts, engine, delivery, subject);
          return c ? `${c.status} (${c.commands.join(', ') || 'none'}; ${c.writeUnits} WCU)` : '–';
        });
        return `| ${delivery} | ${cells.join(' | ')} |`;
      });
      return [
        `Status, DynamoDB commands and write units per delivery, ${engine} (a failed condition reports none):`,
        '',
        '| Delivery (the first five on one reference, in this order) | Ours | Baseline |',
        '| --- | --- | --- |',
        ...rows,
        '',
      ].join('\n');
    })
    .join('\n');
}
