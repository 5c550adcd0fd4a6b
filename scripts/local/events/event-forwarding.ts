import { mkdir, writeFile } from 'node:fs/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { countDeadLetters } from './dead-letters.js';
import { eventFiles } from './event-files.js';
import { startEventForwarder } from './event-forwarder.js';
import type { DeliveryPolicy } from './http-delivery.js';
import { Outbox } from './outbox.js';
import { startTableStream } from './table-stream.js';
import { newSigningSecret } from './webhook-signature.js';

/** `--forward-events` / `FORWARD_EVENTS_URL`, and the knobs tests turn. */
export interface ForwardEventsOptions {
  readonly url: string;
  readonly policy?: DeliveryPolicy;
  /** Pause between two reads of the table when no callback woke them. @default 1000 */
  readonly pollMs?: number;
  /** Where dead letters and failures are told. @default standard error */
  readonly log?: (line: string) => void;
}

/**
 * Local mode's events: the table read as a stream into a durable outbox in the run folder, and
 * every event the stream consumer would publish for it POSTed to the URL, signed with a secret
 * made for this run. Resumes whatever a previous run left owed.
 */
export async function startEventForwarding(
  runDir: string,
  source: { readonly client: DynamoDBClient; readonly tableName: string },
  options: ForwardEventsOptions,
) {
  const files = eventFiles(runDir);
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  const signingSecret = newSigningSecret();
  await writeFile(files.signingSecret, `${signingSecret}\n`, { mode: 0o600 });
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const outbox = await Outbox.open(files);
  const owed = outbox.entries.length - outbox.forwarded;
  const deadLettersBefore = await countDeadLetters(files.deadLetters);

  const forwarder = startEventForwarder({
    outbox,
    target: { url: options.url, signingSecret, ...(options.policy && { policy: options.policy }) },
    deadLetterFile: files.deadLetters,
    log,
  });
  const stream = startTableStream({
    ...source,
    files,
    outbox,
    ...(options.pollMs !== undefined && { pollMs: options.pollMs }),
    onAppended: () => forwarder.notify(),
    onError: (error) =>
      log(`reading the table for events failed (tried again): ${(error as Error).message}`),
  });
  await stream.ready;

  return {
    url: options.url,
    files,
    /** Records a previous run left unsent, forwarded first. */
    resumed: owed,
    /** Dead letters in the folder when this run started. */
    deadLettersBefore,
    get deadLettered() {
      return forwarder.deadLettered;
    },
    get pending() {
      return forwarder.pending;
    },
    /** A callback was answered: read the table now rather than at the next pause. */
    wake(): void {
      stream.wake();
    },
    /** Stops sending (what is in flight stays owed), then records the last changes. */
    async stop(): Promise<void> {
      await forwarder.stop();
      await stream.stop();
      source.client.destroy();
    },
  };
}

export type EventForwarding = Awaited<ReturnType<typeof startEventForwarding>>;
