import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { requestHandler } from '../cli/request-handler.js';
import type { ActivitySource } from '../console/activity/activity-source.js';
import type { ConsoleContext, ConsoleReceiver } from '../console/console-context.js';
import { type ConsoleServer, startConsole } from '../console/console-server.js';
import type { EventFiles } from '../operations/events/event-files.js';

/** `npm start`'s console: on by default (`--no-console` turns it off). */
export interface LocalConsoleOptions {
  /** Default 0: any free port. Always 127.0.0.1, even when the receiver is bound elsewhere. */
  readonly port?: number;
}

/** What local mode knows that its console shows. */
export interface LocalConsoleParts {
  /** How local mode's own clients reach its engine (endpoint, region, this run's credentials). */
  readonly connection: DynamoDBClientConfig;
  readonly tableName: string;
  readonly refusalsTableName: string;
  /** Where the data lives, for the page header: the data folder, "in memory", an engine. */
  readonly where: string;
  /** The receiver's in-process counts, for the Activity view. */
  readonly activity?: ActivitySource;
  /** With `--forward-events`: its folder, for each event's delivery on a transaction's page. */
  readonly eventFiles?: EventFiles;
  /** This server's own callback URL and key: where a refusal is resubmitted. */
  readonly receiver: ConsoleReceiver;
}

/**
 * Starts the console over local mode's own tables, with actions allowed (it is the operator's own
 * data). The context is built here in one place: a view that needs more of local mode gets a
 * field of ConsoleContext filled in below, as the Activity view's recorder, the events folder and
 * resubmit's receiver are.
 */
export async function startLocalConsole(
  parts: LocalConsoleParts,
  options: LocalConsoleOptions,
): Promise<{ console: ConsoleServer; close: () => Promise<void> }> {
  // Its own client: the console's reads never wait behind the receiver's connection pool.
  const client = new DynamoDBClient({ ...parts.connection, requestHandler });
  const context: ConsoleContext = {
    tables: {
      client,
      tableName: parts.tableName,
      refusalsTableName: parts.refusalsTableName,
      description: `table ${parts.tableName}, ${parts.where}`,
    },
    mode: 'local',
    allowActions: true,
    ...(parts.activity && { activity: parts.activity }),
    ...(parts.eventFiles && { eventFiles: parts.eventFiles }),
    receiver: parts.receiver,
    // Other optional fields of ConsoleContext go here. The operator is `local:<OS user>` by mode.
  };
  try {
    const console = await startConsole({ ...context, port: options.port ?? 0 });
    return {
      console,
      close: async () => {
        await console.close();
        client.destroy();
      },
    };
  } catch (error) {
    client.destroy();
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new Error(
      `The console's port ${options.port} is in use: set CONSOLE_PORT (or --console-port) to a free port, or 0 for any.`,
      { cause: error },
    );
  }
}
