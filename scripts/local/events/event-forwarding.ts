import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TransactionFields } from '../../../lambda/callback/transaction-fields.js';
import { countDeadLetters } from '../../operations/events/dead-letters.js';
import { eventFiles } from '../../operations/events/event-files.js';
import { startEventForwarder } from '../../operations/events/event-forwarder.js';
import type { DeliveryPolicy } from '../../operations/events/http-delivery.js';
import { Outbox } from '../../operations/events/outbox.js';
import { newSigningSecret } from '../../operations/events/webhook-signature.js';
import { startTableStream } from './table-stream.js';

/** `--forward-events` / `FORWARD_EVENTS_URL`, and the knobs tests turn. */
export interface ForwardEventsOptions {
  readonly url: string;
  readonly policy?: DeliveryPolicy;
  /** Pause between two reads of the table when no callback woke them. @default 1000 */
  readonly pollMs?: number;
  /** Where each delivery, retry, dead letter and failure is told. @default standard error */
  readonly log?: (line: string) => void;
  /** Tell dead letters and failures only, not each delivery and retry (`--quiet`). */
  readonly quiet?: boolean;
  /** Sign with a new secret instead of the one kept in the folder (`--rotate-forwarding-secret`). */
  readonly rotateSecret?: boolean;
  /** Events in flight at once, each for a different reference. @default 8 */
  readonly concurrency?: number;
}

/**
 * Local mode's events: the table followed as a stream into a durable outbox in the run folder,
 * and every event the stream consumer would publish for it POSTed to the URL, signed with the
 * secret kept in the folder. Resumes whatever a previous run left owed.
 */
export async function startEventForwarding(
  runDir: string,
  source: {
    readonly client: DynamoDBClient;
    readonly tableName: string;
    /** The declaration the table's indexes are named by. @default transactionFields */
    readonly fields?: TransactionFields;
  },
  options: ForwardEventsOptions,
) {
  const files = eventFiles(runDir);
  await mkdir(files.dir, { recursive: true, mode: 0o700 });
  const secret = await signingSecret(files.signingSecret, options.rotateSecret ?? false);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const outbox = await Outbox.open(files);
  const owed = outbox.owed;
  const deadLettersBefore = await countDeadLetters(files.deadLetters);

  const forwarder = startEventForwarder({
    outbox,
    target: {
      url: options.url,
      signingSecret: secret.value,
      ...(options.policy && { policy: options.policy }),
    },
    deadLetterFile: files.deadLetters,
    log,
    ...(!options.quiet && { progress: log }),
    ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
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
    /** Whether the secret was made at this start (first start in the folder, or rotated). */
    newSecret: secret.made,
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

/**
 * The Standard Webhooks secret kept in the folder (owner-only), so a consumer configured with it
 * keeps verifying across restarts; a new one only when there is none or one is asked for.
 */
async function signingSecret(file: string, rotate: boolean) {
  if (!rotate) {
    const kept = (await readFile(file, 'utf8').catch(() => '')).trim();
    if (kept !== '') {
      await chmod(file, 0o600);
      return { value: kept, made: false };
    }
  }
  const value = newSigningSecret();
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  await chmod(file, 0o600); // an existing file keeps its mode through writeFile
  return { value, made: true };
}
