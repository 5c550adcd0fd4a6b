import { join } from 'node:path';

/**
 * Where local mode keeps what its event forwarding needs, beside the engine's files in the data
 * folder (an in-memory run's private folder), so deleting the folder resets it too.
 */
export function eventFiles(runDir: string) {
  const dir = join(runDir, 'events');
  return {
    dir,
    /** Key and digest of every item whose change was recorded, as of the outbox's last fold. */
    snapshot: join(dir, 'snapshot.json'),
    /** Where the live cursor stands in what the table received (see live-cursor.ts). */
    cursor: join(dir, 'cursor.json'),
    /** Notes of changes made by tools (settle), one file each, taken by the forwarder. */
    changes: join(dir, 'changes'),
    /** Every change seen since, as the stream record it stands for (JSON Lines). */
    outbox: join(dir, 'outbox.jsonl'),
    /** How many outbox records are done with (delivered, dead-lettered or standing for no event). */
    forwarded: join(dir, 'forwarded.json'),
    /** Events no try could deliver (JSON Lines); `npm run redrive -- --forward-to` re-sends them. */
    deadLetters: join(dir, 'dead-letters.jsonl'),
    /** The Standard Webhooks signing secret, kept across restarts (0600). */
    signingSecret: join(dir, 'signing-secret'),
  };
}

export type EventFiles = ReturnType<typeof eventFiles>;
