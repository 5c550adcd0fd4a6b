import type {
  PutEventsCommand,
  PutEventsCommandOutput,
  PutEventsRequestEntry,
  PutEventsResultEntry,
} from '@aws-sdk/client-eventbridge';
import type { PutEventsClient } from '../../lambda/events/event-publisher.js';

/** One entry's fate on the n-th call: `undefined` publishes it, a string fails it with that code. */
export type EntryRule = (
  detail: { readonly reference: string },
  call: number,
) => string | undefined;

export interface FakeEventBridgeOptions {
  /** Per-entry answers; every entry is published by default. */
  readonly rule?: EntryRule;
  /** The n-th call throws, as the SDK does once its own retries are spent. */
  readonly throwOnCall?: number;
}

/**
 * An SDK-level stand-in for `EventBridgeClient.send(PutEventsCommand)`: it records every request
 * and answers like EventBridge, per entry, with `FailedEntryCount`. EventBridge cannot be made to
 * fail one entry on demand, so this is the one place the tests use a fake.
 */
export function fakeEventBridge(options: FakeEventBridgeOptions = {}) {
  const rule = options.rule ?? (() => undefined);
  /** Every request's entries, in call order. */
  const requests: PutEventsRequestEntry[][] = [];
  /** References of the entries accepted, in order. */
  const published: string[] = [];
  const client: PutEventsClient = {
    async send(command: PutEventsCommand): Promise<PutEventsCommandOutput> {
      const entries = command.input.Entries ?? [];
      requests.push(entries);
      const call = requests.length;
      if (options.throwOnCall === call) {
        throw Object.assign(new Error('connect ETIMEDOUT'), { name: 'TimeoutError' });
      }
      const results: PutEventsResultEntry[] = entries.map((entry) => {
        const detail = JSON.parse(entry.Detail ?? '{}') as { reference: string };
        const errorCode = rule(detail, call);
        if (errorCode !== undefined) return { ErrorCode: errorCode, ErrorMessage: 'fake failure' };
        published.push(detail.reference);
        return { EventId: `event-${published.length}` };
      });
      return {
        $metadata: { httpStatusCode: 200 },
        FailedEntryCount: results.filter((result) => result.ErrorCode !== undefined).length,
        Entries: results,
      };
    },
  };
  return { client, requests, published };
}
