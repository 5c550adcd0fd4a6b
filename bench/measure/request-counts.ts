import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { signedBody } from '../../scripts/shared/gateway-signer.js';
import { recordRequests } from '../../scripts/shared/request-counter.js';
import { median } from '../../scripts/shared/statistics.js';
import { baselineOnDynamoDb } from '../subjects/baseline.js';
import { oursOnDynamoDb } from '../subjects/ours.js';
import { apiGatewayEvent } from '../support/api-gateway-event.js';
import { benchKey, callbackFields, freshReference } from '../support/callbacks.js';
import { createBenchTables, type Engine, engineClient } from '../support/engines.js';
import { silenceOutput } from '../support/silence-output.js';
import type { Invoke, SubjectName } from '../support/subject.js';

export const deliveries = [
  'new',
  'duplicate',
  'conflict',
  'conflict again',
  'duplicate after conflicts',
] as const;
export type Delivery = (typeof deliveries)[number];

/** What one kind of delivery cost one receiver on one engine. */
export interface RequestCount {
  readonly engine: Engine['name'];
  readonly subject: SubjectName;
  readonly delivery: Delivery;
  /** Median over the rounds (the counts are deterministic; the median guards against retries). */
  readonly requests: number;
  /** The commands of the first round, in order, e.g. `PutItem, UpdateItem`. */
  readonly commands: readonly string[];
  readonly status: number;
}

/**
 * Counts DynamoDB requests at the SDK client (a middleware on the client both receivers share,
 * so every command either sends is seen, retries included) for a new callback, the identical
 * body again, the same reference with another amount (twice), then the first body once more. The statuses are kept too: they show whether both receivers give each delivery
 * the same outcome.
 */
export async function countRequests(engine: Engine, rounds: number): Promise<RequestCount[]> {
  const client = engineClient(engine.endpoint);
  const restore = silenceOutput();
  try {
    const tables = await createBenchTables(client);
    const subjects: Record<SubjectName, Invoke> = {
      ours: oursOnDynamoDb(client, tables.ours, [benchKey]),
      baseline: baselineOnDynamoDb(client, tables.baseline, [benchKey]),
    };
    const results: RequestCount[] = [];
    for (const [subject, invoke] of Object.entries(subjects) as [SubjectName, Invoke][]) {
      const samples = new Map<Delivery, { counts: number[]; commands: string[]; status: number }>();
      for (let round = 0; round < rounds; round++) {
        const fields = callbackFields(freshReference());
        const signed = (body: typeof fields) => signedBody(body, benchKey);
        const bodies: Record<Delivery, string> = {
          new: signed(fields),
          duplicate: signed(fields),
          conflict: signed({ ...fields, amount: 1 }),
          // A sender retrying the conflicting content: it must stay refused, the record unchanged.
          'conflict again': signed({ ...fields, amount: 1 }),
          // And the first content once more: still the recorded one, so still a duplicate.
          'duplicate after conflicts': signed(fields),
        };
        for (const delivery of deliveries) {
          const { commands, status } = await countOne(client, invoke, bodies[delivery]);
          const sample = samples.get(delivery) ?? { counts: [], commands, status };
          sample.counts.push(commands.length);
          samples.set(delivery, sample);
        }
      }
      for (const delivery of deliveries) {
        const sample = samples.get(delivery);
        if (!sample) continue;
        results.push({
          engine: engine.name,
          subject,
          delivery,
          requests: median(sample.counts),
          commands: sample.commands,
          status: sample.status,
        });
      }
    }
    return results;
  } finally {
    restore();
    client.destroy();
  }
}

async function countOne(client: DynamoDBClient, invoke: Invoke, body: string) {
  const recorder = recordRequests(client);
  try {
    const response = await invoke(apiGatewayEvent(body, { apiKey: benchKey }));
    return { commands: recorder.requests(), status: response.statusCode };
  } finally {
    recorder.stop();
  }
}
