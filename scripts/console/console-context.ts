import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { EventFiles } from '../local/events/event-files.js';
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
}

/** Hono's environment for every console route: the signed-in session. */
export type ConsoleEnv = { Variables: SessionVariables };
