import { readFile } from 'node:fs/promises';
import type { DynamoDBRecord } from 'aws-lambda';
import { eventForRecord, putEventsEntry } from '../../../lambda/events/stream-record-event.js';
import { readDeadLetters } from '../../operations/events/dead-letters.js';
import type { EventFiles } from '../../operations/events/event-files.js';
import { readJsonLines } from '../../operations/events/json-lines-file.js';
import type { OutboxEntry } from '../../operations/events/outbox.js';
import type { PublishedEvent } from './published-events.js';

/** Where local forwarding stands with one event (`npm start -- --forward-events`). */
export type DeliveryState =
  | { readonly state: 'delivered' | 'pending' | 'not in the outbox' }
  | { readonly state: 'dead letter'; readonly problem: string; readonly attempts: number };

/**
 * Each event's state in local mode's forwarding folder, read only (the running forwarder owns
 * it): a dead letter if one is kept for it; otherwise, if the outbox holds its change,
 * delivered when the forwarder's cursor is past it, else still owed. An event the outbox does
 * not hold was delivered before the outbox was last folded into its snapshot, or recorded
 * before forwarding first started: the files cannot tell which.
 */
export async function deliveryStates(
  files: EventFiles,
  events: readonly PublishedEvent[],
): Promise<DeliveryState[]> {
  const [entries, forwarded, letters] = await Promise.all([
    readJsonLines<OutboxEntry>(files.outbox),
    readFile(files.forwarded, 'utf8')
      .then((text) => Number((JSON.parse(text) as { count?: number }).count ?? 0))
      .catch(() => 0),
    readDeadLetters(files.deadLetters),
  ]);
  const done = new Map<string, boolean>();
  entries.forEach((entry, index) => {
    const key = keyOfRecord(entry.record);
    // The latest change that raises the same event decides (a resend after a restart).
    if (key !== undefined) done.set(key, index < forwarded);
  });
  const dead = new Map<string, { problem: string; attempts: number }>();
  for (const letter of letters) {
    if (letter.body === undefined || letter.detailType === undefined) continue;
    const envelope = JSON.parse(letter.body) as { detail?: unknown };
    dead.set(keyOf(letter.detailType, envelope.detail), letter);
  }
  return events.map((event): DeliveryState => {
    if (event.detail === undefined) return { state: 'not in the outbox' };
    const key = keyOf(event.detailType, JSON.parse(event.detail));
    const letter = dead.get(key);
    if (letter) return { state: 'dead letter', problem: letter.problem, attempts: letter.attempts };
    const delivered = done.get(key);
    if (delivered === undefined) return { state: 'not in the outbox' };
    return { state: delivered ? 'delivered' : 'pending' };
  });
}

/**
 * What tells one event from another (consumers dedupe on the same): the reference and the
 * content's fingerprint, or for a correction the version it made.
 */
function keyOf(detailType: string, detail: unknown): string {
  const { reference, fingerprint, version } = (detail ?? {}) as Record<string, unknown>;
  return JSON.stringify([detailType, reference, version ?? fingerprint]);
}

function keyOfRecord(record: DynamoDBRecord): string | undefined {
  try {
    const event = eventForRecord(record);
    if (event === undefined) return undefined;
    const { DetailType, Detail } = putEventsEntry(event, 'console');
    return keyOf(String(DetailType), JSON.parse(String(Detail)));
  } catch {
    // A record no event can be built from is a dead letter of its own, without an event.
    return undefined;
  }
}
