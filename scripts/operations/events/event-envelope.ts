import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';

/** The region local runs name, where the shell sets none. */
export const localRegion = 'us-east-1';

/** Where an envelope says it came from: a local run has no account, so it says so. */
export interface EnvelopeOrigin {
  /** The event's id: stable across retries, restarts and redrives, so consumers can dedupe. */
  readonly id: string;
  readonly time: Date;
  readonly region: string;
  /** @default `000000000000`, the account id AWS's own local tools use. */
  readonly account?: string;
}

/**
 * The JSON EventBridge delivers to a target for a PutEvents entry: the same members in the same
 * order. `detail` is the entry's `Detail` text spliced in as it is, never parsed and
 * re-serialized, so every digit the stream consumer wrote (an id past 2^53, an amount) arrives.
 */
export function envelopeBody(entry: PutEventsRequestEntry, origin: EnvelopeOrigin): string {
  if (entry.Detail === undefined || entry.DetailType === undefined || entry.Source === undefined) {
    throw new TypeError('A PutEvents entry needs Source, DetailType and Detail');
  }
  const head = {
    version: '0',
    id: origin.id,
    'detail-type': entry.DetailType,
    source: entry.Source,
    account: origin.account ?? '000000000000',
    // EventBridge writes whole seconds.
    time: origin.time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: origin.region,
    resources: entry.Resources ?? [],
  };
  return `${JSON.stringify(head).slice(0, -1)},"detail":${entry.Detail}}`;
}
