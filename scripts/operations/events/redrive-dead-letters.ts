import { UnpublishableRecordError } from '../../../lambda/events/errors.js';
import { eventForRecord, putEventsEntry } from '../../../lambda/events/stream-record-event.js';
import { type DeadLetter, eachDeadLetter, removeDeadLetters } from './dead-letters.js';
import { type EventTarget, type OutgoingEvent, outgoingEvent, send } from './event-target.js';

export interface DeadLetterOutcome {
  readonly id: string;
  readonly delivered: boolean;
  /** Not delivered because the consumer refused or could not be reached (not for its content). */
  readonly refused?: boolean;
  readonly problem?: string;
}

/** How many letters a redrive took up, and how many of them left the file. */
export interface RedriveSummary {
  readonly handled: number;
  readonly delivered: number;
  /** Whether it stopped at a letter the consumer still refuses or could not be reached for. */
  readonly refused: boolean;
}

/**
 * Sends local mode's dead letters again, oldest first, each with its own envelope id (consumers
 * that saw it after all dedupe on it), and removes the delivered ones from the file. It stops at
 * the first one the consumer still refuses: the rest would only wait out the same retries. The
 * file is read as it goes and each outcome handed to `found` as it happens, so memory holds the
 * delivered ids and no more, however many letters there are.
 */
export async function redriveDeadLetters(
  file: string,
  target: EventTarget,
  found: (outcome: DeadLetterOutcome) => void = () => {},
): Promise<RedriveSummary> {
  const delivered = new Set<string>();
  let handled = 0;
  let refused = false;
  const report = (outcome: DeadLetterOutcome) => {
    handled += 1;
    if (outcome.delivered) delivered.add(outcome.id);
    found(outcome);
  };
  // A letter no reader can decode fails the run loudly, but only after the ones delivered before
  // it have left the file: otherwise each run would send them again.
  try {
    for await (const letter of eachDeadLetter(file)) {
      let event: OutgoingEvent | undefined;
      try {
        event = eventOf(letter, target);
      } catch (error) {
        if (!(error instanceof UnpublishableRecordError)) throw error;
        report({ id: letter.id, delivered: false, problem: error.message });
        continue;
      }
      if (event === undefined) {
        // The record stands for no event (any more): nothing is owed.
        report({ id: letter.id, delivered: true });
        continue;
      }
      const outcome = await send(target, event);
      report({
        id: letter.id,
        delivered: outcome?.delivered === true,
        ...(!outcome?.delivered && { refused: true, problem: outcome?.problem ?? 'stopped' }),
      });
      if (!outcome?.delivered) {
        refused = true;
        break;
      }
    }
  } finally {
    await removeDeadLetters(file, delivered);
  }
  return { handled, delivered: delivered.size, refused };
}

/** The envelope as first sent; for a record no event could be built from, built again now. */
function eventOf(letter: DeadLetter, target: EventTarget): OutgoingEvent | undefined {
  if (letter.body !== undefined) return { id: letter.id, body: letter.body };
  if (letter.record === undefined) return undefined;
  const event = eventForRecord(letter.record);
  if (event === undefined) return undefined;
  return outgoingEvent(putEventsEntry(event, 'local'), target, letter.id);
}
