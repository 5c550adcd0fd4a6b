import type { DynamoDBRecord } from 'aws-lambda';
import { UnpublishableRecordError } from '../../../lambda/events/errors.js';
import { eventForRecord, putEventsEntry } from '../../../lambda/events/stream-record-event.js';
import { attributes } from '../../../lambda/storage/table-definition.js';
import { appendDeadLetter, type DeadLetter } from './dead-letters.js';
import { type EventTarget, outgoingEvent, send } from './event-target.js';
import type { Outbox } from './outbox.js';

export interface EventForwarderOptions {
  readonly outbox: Outbox;
  readonly target: EventTarget;
  readonly deadLetterFile: string;
  /** Told of each dead letter and of failures of the forwarder itself; nothing secret in it. */
  readonly log: (line: string) => void;
  /** Told of each delivered event and each retry (`--quiet` leaves it out). */
  readonly progress?: (line: string) => void;
  /** Events in flight at once, each for a different reference. @default 8 */
  readonly concurrency?: number;
}

/** Entries, all done with, after which the outbox is folded into its snapshot. */
const compactAfter = 1_000;

/** How far past the first entry still owed the forwarder looks for one it may send. */
const lookahead = 1_000;

/** The bus name entries carry; EventBridge drops it from what it delivers, and so do we. */
const localBus = 'local';

/**
 * Sends the outbox's records to the target, each turned into its event by the stream consumer's
 * own functions (`eventForRecord`, `putEventsEntry`): whatever the consumer publishes, and only
 * that. Events of different references go at once (up to `concurrency`), those of one reference
 * one after the other in the order they were seen, so a consumer that keeps failing one
 * reference holds that reference alone. An event that no try delivers goes to the dead-letter
 * file and its reference goes on; a stop leaves the events in flight owed, sent again at the
 * next start (consumers dedupe on the envelope's id).
 */
export function startEventForwarder(options: EventForwarderOptions) {
  const { outbox, target, log } = options;
  const progress = options.progress ?? (() => {});
  const concurrency = options.concurrency ?? 8;
  const stopping = new AbortController();
  const inFlight = new Map<number, Promise<void>>();
  let wake: (() => void) | undefined;
  let deadLettered = 0;
  let failed = false;

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
    const what = `${event.detailType} ${event.detail.reference}`;
    const started = Date.now();
    const outcome = await send(target, outgoing, stopping.signal, (failure) =>
      progress(
        `event ${outgoing.id} (${what}): try ${failure.attempt} failed (${failure.problem}); ` +
          `trying again in ${Math.round(failure.retryInMs)} ms`,
      ),
    );
    if (outcome === undefined) return false;
    if (outcome.delivered) {
      const tries = outcome.attempts === 1 ? '' : `, ${outcome.attempts} tries`;
      progress(
        `event ${outgoing.id} (${what}) delivered: ${outcome.status} in ${Date.now() - started} ms${tries}`,
      );
      return true;
    }
    await deadLetter({
      id: outgoing.id,
      detailType: event.detailType,
      reference: event.detail.reference,
      body: outgoing.body,
      url: target.url,
      attempts: outcome.attempts,
      problem: outcome.problem,
    });
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

  const notify = () => {
    wake?.();
    wake = undefined;
  };

  const launch = (index: number, record: DynamoDBRecord) => {
    const run = (async () => {
      try {
        if (!(await forwardOne(record))) return;
        await outbox.markDone(index);
        // A long run would otherwise keep every change since its start, on disk and in memory.
        await outbox.compactWhenDone(compactAfter);
      } catch (error) {
        // A disk that refuses the cursor or the dead letter: stop rather than send twice.
        failed = true;
        log(`event forwarding stopped: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        inFlight.delete(index);
        notify();
      }
    })();
    inFlight.set(index, run);
  };

  /** Starts every entry it may: its reference has nothing earlier owed, and there is room. */
  const launchReady = () => {
    const busy = new Set<string>();
    const end = Math.min(outbox.entries.length, outbox.forwarded + lookahead);
    for (let index = outbox.forwarded; index < end; index++) {
      if (inFlight.size >= concurrency) return;
      if (outbox.isDone(index)) continue;
      const entry = outbox.entries[index];
      if (entry === undefined) continue;
      const lane = laneOf(entry.key, entry.record);
      if (busy.has(lane)) continue;
      busy.add(lane);
      if (!inFlight.has(index)) launch(index, entry.record);
    }
  };

  const loop = async () => {
    while (!stopping.signal.aborted && !failed) {
      launchReady();
      await new Promise<void>((resume) => {
        wake = resume;
      });
    }
    await Promise.all(inFlight.values());
  };
  const done = loop();

  return {
    /** New records were appended. */
    notify,
    /** Dead letters written by this run. */
    get deadLettered(): number {
      return deadLettered;
    },
    /** Records appended but not yet done with. */
    get pending(): number {
      return outbox.owed;
    },
    /** Stops at once; the events in flight stay owed. */
    async stop(): Promise<void> {
      stopping.abort();
      notify();
      await done;
    },
  };
}

/** What order is kept within: the reference, which a conflict item names in `conflictOf`. */
function laneOf(key: string, record: DynamoDBRecord): string {
  return record.dynamodb?.NewImage?.[attributes.conflictOf]?.S ?? key;
}
