import { UnpublishableRecordError } from '../../lambda/events/errors.js';
import { eventForRecord, putEventsEntry } from '../../lambda/events/stream-record-event.js';
import {
  type DeadLetter,
  readDeadLetters,
  removeDeadLetters,
} from '../local/events/dead-letters.js';
import {
  type EventTarget,
  type OutgoingEvent,
  outgoingEvent,
  send,
} from '../local/events/event-target.js';

export interface DeadLetterOutcome {
  readonly id: string;
  readonly delivered: boolean;
  /** Not delivered because the consumer refused or could not be reached (not for its content). */
  readonly refused?: boolean;
  readonly problem?: string;
}

/**
 * Sends local mode's dead letters again, oldest first, each with its own envelope id (consumers
 * that saw it after all dedupe on it), and removes the delivered ones from the file. It stops at
 * the first one the consumer still refuses: the rest would only wait out the same retries.
 * `handled` is told of each letter as it is taken up (progress).
 */
export async function redriveDeadLetters(
  file: string,
  target: EventTarget,
  handled: () => void = () => {},
): Promise<DeadLetterOutcome[]> {
  const outcomes: DeadLetterOutcome[] = [];
  const letters = await readDeadLetters(file);
  for (const letter of letters) {
    handled();
    let event: OutgoingEvent | undefined;
    try {
      event = eventOf(letter, target);
    } catch (error) {
      if (!(error instanceof UnpublishableRecordError)) throw error;
      outcomes.push({ id: letter.id, delivered: false, problem: error.message });
      continue;
    }
    if (event === undefined) {
      // The record stands for no event (any more): nothing is owed.
      outcomes.push({ id: letter.id, delivered: true });
      continue;
    }
    const outcome = await send(target, event);
    outcomes.push({
      id: letter.id,
      delivered: outcome?.delivered === true,
      ...(!outcome?.delivered && { refused: true, problem: outcome?.problem ?? 'stopped' }),
    });
    if (!outcome?.delivered) break;
  }
  const delivered = new Set(outcomes.filter((o) => o.delivered).map((o) => o.id));
  await removeDeadLetters(file, delivered);
  return outcomes;
}

/** The envelope as first sent; for a record no event could be built from, built again now. */
function eventOf(letter: DeadLetter, target: EventTarget): OutgoingEvent | undefined {
  if (letter.body !== undefined) return { id: letter.id, body: letter.body };
  if (letter.record === undefined) return undefined;
  const event = eventForRecord(letter.record);
  if (event === undefined) return undefined;
  return outgoingEvent(putEventsEntry(event, 'local'), target, letter.id);
}
