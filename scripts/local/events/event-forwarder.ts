import type { DynamoDBRecord } from 'aws-lambda';
import { UnpublishableRecordError } from '../../../lambda/events/errors.js';
import { eventForRecord, putEventsEntry } from '../../../lambda/events/stream-record-event.js';
import { appendDeadLetter, type DeadLetter } from './dead-letters.js';
import { type EventTarget, outgoingEvent, send } from './event-target.js';
import type { Outbox } from './outbox.js';

export interface EventForwarderOptions {
  readonly outbox: Outbox;
  readonly target: EventTarget;
  readonly deadLetterFile: string;
  /** Told of each dead letter and of failures of the forwarder itself; nothing secret in it. */
  readonly log: (line: string) => void;
}

/** Entries, all done with, after which the outbox is folded into its snapshot. */
const compactAfter = 1_000;

/** The bus name entries carry; EventBridge drops it from what it delivers, and so do we. */
const localBus = 'local';

/**
 * Sends the outbox's records to the target one at a time, in the order they were seen (so in
 * order per reference), each turned into its event by the stream consumer's own functions
 * (`eventForRecord`, `putEventsEntry`): whatever the consumer publishes, and only that. An event
 * that no try delivers goes to the dead-letter file and the next one goes on; a stop leaves the
 * current one owed, sent again at the next start (consumers dedupe on the envelope's id).
 */
export function startEventForwarder(options: EventForwarderOptions) {
  const { outbox, target, log } = options;
  const stopping = new AbortController();
  let wake: (() => void) | undefined;
  let deadLettered = 0;

  const forwardOne = async (record: DynamoDBRecord): Promise<boolean> => {
    let event: ReturnType<typeof eventForRecord>;
    try {
      event = eventForRecord(record);
    } catch (error) {
      if (!(error instanceof UnpublishableRecordError)) throw error;
      await deadLetter({ id: record.eventID ?? '', record, attempts: 0, problem: error.message });
      return true;
    }
    if (event === undefined) return true; // the stream consumer publishes nothing for it
    const time = new Date((record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000);
    const outgoing = outgoingEvent(putEventsEntry(event, localBus), target, record.eventID, time);
    const outcome = await send(target, outgoing, stopping.signal);
    if (outcome === undefined) return false;
    if (!outcome.delivered) {
      await deadLetter({
        id: outgoing.id,
        detailType: event.detailType,
        reference: event.detail.reference,
        body: outgoing.body,
        url: target.url,
        attempts: outcome.attempts,
        problem: outcome.problem,
      });
    }
    return true;
  };

  const deadLetter = async (letter: Omit<DeadLetter, 'deadLetteredAt'>) => {
    await appendDeadLetter(options.deadLetterFile, {
      ...letter,
      deadLetteredAt: new Date().toISOString(),
    });
    deadLettered += 1;
    const what = letter.detailType ? `${letter.detailType} ${letter.reference}` : 'a record';
    log(
      `event ${letter.id} (${what}) not delivered after ${letter.attempts} tries: ${letter.problem}; ` +
        `${deadLettered} dead letter(s) this run, in ${options.deadLetterFile}`,
    );
  };

  const loop = async () => {
    while (!stopping.signal.aborted) {
      const entry = outbox.entries[outbox.forwarded];
      if (entry === undefined) {
        await new Promise<void>((resume) => {
          wake = resume;
        });
        continue;
      }
      try {
        if (!(await forwardOne(entry.record))) return;
        await outbox.markForwarded();
        // A long run would otherwise keep every change since its start, on disk and in memory.
        await outbox.compactWhenDone(compactAfter);
      } catch (error) {
        // A disk that refuses the cursor or the dead letter: stop rather than send twice.
        log(`event forwarding stopped: ${error instanceof Error ? error.message : String(error)}`);
        return;
      }
    }
  };
  const done = loop();

  return {
    /** New records were appended. */
    notify(): void {
      wake?.();
      wake = undefined;
    },
    /** Dead letters written by this run. */
    get deadLettered(): number {
      return deadLettered;
    },
    /** Records appended but not yet done with. */
    get pending(): number {
      return outbox.entries.length - outbox.forwarded;
    },
    /** Stops at once; an event in flight stays owed. */
    async stop(): Promise<void> {
      stopping.abort();
      wake?.();
      await done;
    },
  };
}
