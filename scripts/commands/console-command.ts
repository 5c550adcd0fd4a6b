/** `npm run console`: the operator console against a deployed stack's tables (docs/console.md). */

import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import {
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { type CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { refusalsTableName } from '../../lambda/refusals/refusals-table.js';
import { type KeyFlags, resolveApiKey, withKeyOptions } from '../cli/api-key-option.js';
import { httpUrl, UsageError } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { requestHandler } from '../cli/request-handler.js';
import { createCloudWatchActivity } from '../console/activity/cloudwatch-client.js';
import { type ConsoleServer, startConsole } from '../console/console-server.js';
import { type StackTables, stackTables } from '../console/stack-tables.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';
import { operatorIdentity } from '../operations/settle/operator-identity.js';

const program = commandProgram(
  'console',
  "Serve the operator console on 127.0.0.1 against a deployed stack's tables.",
  { ok: 'stopped with Ctrl-C (or SIGTERM)' },
)
  .addOption(
    new Option('--stack <name>', 'the deployed stack: both tables from its outputs').conflicts(
      'table',
    ),
  )
  .option('--table <name>', "or the transactions table: the stack's TableName output")
  .addOption(
    new Option(
      '--refusals-table <name>',
      "with --table: the stack's RefusalsTableName output (default <table>-refusals)",
    ).env('REFUSALS_TABLE_NAME'),
  )
  .option('--allow-actions', 'allow settle and resubmit (default: read-only)')
  .addOption(
    new Option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)')
      .default(0)
      .argParser(parsePort),
  )
  .addOption(
    new Option('--endpoint <url>', 'a DynamoDB-compatible endpoint instead of AWS').env(
      'AWS_ENDPOINT_URL_DYNAMODB',
    ),
  )
  .option(
    '--url <url>',
    'where resubmit sends (default with --stack: its CallbackUrl output)',
    httpUrl('--url'),
  )
  .addHelpText(
    'after',
    `
Credentials and region as for the AWS CLI (AWS_PROFILE, AWS_REGION, ...). Reading needs
dynamodb:DescribeTable, GetItem, BatchGetItem and Query on both tables and their indexes, and
cloudformation:DescribeStacks for --stack; --allow-actions adds what settle needs (the stack's
SettlePolicyArn output).

Prints "Console: <url>": open it in a browser on this machine. The link signs in once.`,
  );
withKeyOptions(program, 'resubmit is off').action(serve);

interface Flags extends KeyFlags {
  readonly stack?: string;
  readonly table?: string;
  readonly refusalsTable?: string;
  readonly allowActions?: true;
  readonly port: number;
  readonly endpoint?: string;
  readonly url?: string;
}

async function serve(flags: Flags, command: CommandUnknownOpts): Promise<void> {
  if (flags.stack === undefined && flags.table === undefined) {
    throw new UsageError('give --stack <name> (or --table <name>)');
  }
  if (flags.stack !== undefined && command.getOptionValueSource('refusalsTable') === 'cli') {
    throw new UsageError(
      '--stack reads both table names from the stack: leave out --refusals-table',
    );
  }
  const client = new DynamoDBClient({
    ...(flags.endpoint ? { endpoint: flags.endpoint } : {}),
    requestHandler,
  });
  // The stack's name finds its metrics; with --table alone the Activity view has no figures.
  const activity = flags.stack ? createCloudWatchActivity(flags.stack) : undefined;
  let console: ConsoleServer;
  try {
    const region = await client.config.region().catch(() => {
      throw new UsageError('no AWS region: set AWS_REGION or a profile with a region');
    });
    const where = flags.endpoint ?? region;
    const tables = await tableNames(flags);
    const fromStack = "the stack's outputs name it: check AWS_REGION";
    await tableExists(client, tables.tableName, where, flags.stack ? fromStack : '--table');
    await tableExists(
      client,
      tables.refusalsTableName,
      where,
      flags.stack
        ? fromStack
        : "--refusals-table: the stack's RefusalsTableName output (on AWS its name is not derived from the transactions table's)",
    );
    const named = flags.stack ? `stack ${flags.stack}, table ` : 'table ';
    // Resubmit sends as `npm run resubmit` does: a URL and a key, or it stays off (the page says).
    const url = flags.url ?? tables.callbackUrl;
    const apiKey = await resolveApiKey(flags, 'console', async () => undefined);
    // Settling records who settled: the IAM ARN on AWS, the OS user against a loopback engine.
    const aws = !(flags.endpoint && isLoopbackUrl(flags.endpoint));
    console = await startConsole({
      tables: {
        client,
        tableName: tables.tableName,
        refusalsTableName: tables.refusalsTableName,
        description: `${named}${tables.tableName} in ${where}`,
      },
      mode: 'deployed',
      allowActions: flags.allowActions === true,
      ...(activity && { activity: activity.source }),
      ...(url && apiKey && { receiver: { url, apiKey } }),
      operator: () => operatorIdentity({ aws }),
      // Optional fields other views add go here (with --stack, tables.callbackUrl for resubmit…).
      port: flags.port,
    });
  } catch (error) {
    client.destroy();
    activity?.destroy();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new UsageError(`port ${flags.port} is in use: pick another --port, or 0 for any`);
    }
    throw error;
  }
  const access = flags.allowActions ? 'settle and resubmit allowed' : 'read-only';
  process.stdout.write(
    `Operator console for ${flags.stack ? `stack ${flags.stack}` : `table ${flags.table}`} (${access})\n\n` +
      `Console: ${console.url}\n` +
      '  (in a browser on this machine; the link signs in once: docs/console.md)\n\n' +
      'Ctrl-C stops it.\n',
  );
  await stopped();
  process.stderr.write('Stopping…\n');
  await console.close();
  client.destroy();
  activity?.destroy();
}

/** `--table` (and `--refusals-table`) as given, or the stack's outputs. */
async function tableNames(flags: Flags): Promise<StackTables> {
  if (flags.stack === undefined) {
    const tableName = flags.table as string;
    return { tableName, refusalsTableName: flags.refusalsTable ?? refusalsTableName(tableName) };
  }
  const cloudFormation = new CloudFormationClient({ requestHandler });
  try {
    return await stackTables(cloudFormation, flags.stack);
  } finally {
    cloudFormation.destroy();
  }
}

/** The first Ctrl-C, SIGTERM or SIGHUP (npm relays Ctrl-C a second time: one is enough). */
function stopped(): Promise<void> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => resolve());
    }
  });
}

/** A wrong name fails before the URL is printed, naming the option that gives the right one. */
async function tableExists(client: DynamoDBClient, name: string, where: string, hint: string) {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    throw new UsageError(`no table ${name} in ${where}: check ${hint}`);
  }
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new UsageError(`--port must be 0-65535, got ${value}`);
  }
  return port;
}

withExamples(program, [
  'console --stack CallbackReceiver',
  'console --stack CallbackReceiver --allow-actions',
  'console --table callback-transactions --endpoint http://127.0.0.1:8000',
]);

await runProgram(program, 'console');
// Stopped or failed: the SDK's sockets must not keep the process alive.
process.exit(process.exitCode ?? exitCodes.ok);
