import { randomUUID } from 'node:crypto';
import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { EntryOutcome, EventPublisher } from '../../../lambda/events/event-publisher.js';
import { envelopeBody, localRegion } from './event-envelope.js';
import {
  type DeliveryOutcome,
  type DeliveryPolicy,
  deliver,
  type FailedTry,
} from './http-delivery.js';
import { signatureHeaders } from './webhook-signature.js';

/** A URL that takes events as EventBridge would deliver them to an API destination. */
export interface EventTarget {
  readonly url: string;
  /** Signs every body (Standard Webhooks headers) when given. */
  readonly signingSecret?: string;
  readonly policy?: DeliveryPolicy;
  /** The `region` envelopes carry. @default AWS_REGION, else local mode's */
  readonly region?: string;
}

/** An event ready to POST: its envelope's id and body, kept as is for redrives. */
export interface OutgoingEvent {
  readonly id: string;
  readonly body: string;
}

/** The envelope EventBridge would deliver for `entry`. */
export function outgoingEvent(
  entry: PutEventsRequestEntry,
  target: Pick<EventTarget, 'region'>,
  id: string = randomUUID(),
  time: Date = new Date(),
): OutgoingEvent {
  const region = target.region ?? (process.env.AWS_REGION || localRegion);
  return { id, body: envelopeBody(entry, { id, time, region }) };
}

/** POSTs one event with the target's signing and retries; see {@link deliver}. */
export function send(
  target: EventTarget,
  event: OutgoingEvent,
  signal?: AbortSignal,
  onRetry?: (failed: FailedTry) => void,
): Promise<DeliveryOutcome | undefined> {
  const headers = target.signingSecret
    ? { ...signatureHeaders(target.signingSecret, event.id, event.body) }
    : { 'webhook-id': event.id };
  return deliver(target.url, event.body, headers, target.policy, signal, onRetry);
}

/**
 * The stream consumer's publisher, pointed at a URL instead of a bus: replay hands it the
 * entries the stream consumer's own mapping built. In order; after an event that could not be
 * delivered the rest stay `not-sent`, as with EventBridge, so a consumer never sees a later
 * event of a reference before an earlier one.
 */
export class HttpEventPublisher implements EventPublisher {
  constructor(private readonly target: EventTarget) {}

  async publish(entries: readonly PutEventsRequestEntry[]): Promise<EntryOutcome[]> {
    const outcomes: EntryOutcome[] = entries.map(() => ({ status: 'not-sent' }));
    for (const [index, entry] of entries.entries()) {
      const event = outgoingEvent(entry, this.target);
      const outcome = await send(this.target, event);
      if (outcome?.delivered) {
        outcomes[index] = { status: 'published', eventId: event.id };
        continue;
      }
      outcomes[index] = { status: 'failed', errorCode: outcome?.problem ?? 'stopped' };
      break;
    }
    return outcomes;
  }
}
