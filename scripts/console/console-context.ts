import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { EventFiles } from '../operations/events/event-files.js';
import type { ActivitySource } from './activity/activity-source.js';
import type { SessionVariables } from './security/session.js';

/** The tables the console reads (and, with actions allowed, settles and resubmits into). */
export interface ConsoleTables {
  readonly client: DynamoDBClient;
  readonly tableName: string;
  readonly refusalsTableName: string;
  /** For the page header: "local mode (.data/)", "table x in eu-west-1", … */
  readonly description: string;
}

/** What every view is given. */
export interface ConsoleContext {
  readonly tables: ConsoleTables;
  /** `local`: inside `npm start`; `deployed`: `npm run console` against a stack's tables. */
  readonly mode: 'local' | 'deployed';
  /** Settle and resubmit: always in local mode, with `--allow-actions` against a deployment. */
  readonly allowActions: boolean;
  /**
   * Callbacks per minute and latency for the Activity view: local mode's in-process recorder
   * (`startLocalServer().activity`) or a stack's CloudWatch metrics. Without it the view says
   * there are no figures.
   */
  readonly activity?: ActivitySource;
  /**
   * Local mode forwarding events (`--forward-events`): its folder (`eventFiles(dataDir)`), read
   * only, so the transaction view shows each event's delivery. Absent: delivery not shown.
   */
  readonly eventFiles?: EventFiles;
  /**
   * Where Refusals' resubmit sends a kept body, as `npm run resubmit` would: the receiver's POST
   * …/callback URL and a key it accepts. Local mode: its own gateway URL and key; deployed: the
   * API's URL and a key from `--key-file`/`CALLBACK_API_KEY`. Absent: resubmit is off, and the
   * page says what to configure. The key is only ever sent as `x-api-key`, never shown.
   */
  readonly receiver?: ConsoleReceiver;
  /**
   * Who settles, for the record, asked at each settle as `npm run settle` asks: the caller's IAM
   * ARN (STS) against AWS, `local:<OS user>` against local data. Default: by `mode`, `deployed`
   * meaning AWS; a deployed-mode console over a loopback `--endpoint` should pass
   * `() => operatorIdentity({ aws: false })`, as the CLI decides.
   */
  readonly operator?: () => Promise<string>;
}

/** The receiver resubmit posts to. */
export interface ConsoleReceiver {
  readonly url: string;
  readonly apiKey: string;
  /** Default 10 s, as `npm run resubmit`'s `--timeout-ms`. */
  readonly timeoutMs?: number;
}

/** Hono's environment for every console route: the signed-in session. */
export type ConsoleEnv = { Variables: SessionVariables };
