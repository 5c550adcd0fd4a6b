import { type Command, CommanderError } from 'commander';
import { type QueryTarget, resolveTarget } from '../query/query-target.js';
import { reportFailure } from '../shared/cli-errors.js';
import { localData } from '../shared/local-data.js';
import { InputError } from './input-error.js';

/**
 * Runs an ops command with the exit-code convention: 0 ok, 1 differences found or an operation
 * failed, 2 a usage or input error. Commander prints its own usage errors before throwing.
 */
export async function runCommand(
  program: Command,
  argv: readonly string[] = process.argv,
): Promise<void> {
  program.exitOverride();
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
    } else if (error instanceof InputError) {
      process.stderr.write(`${program.name()}: ${error.message}\n`);
      process.exitCode = 2;
    } else {
      reportFailure(program.name(), error);
    }
  }
}

export interface TableOptions {
  readonly table?: string;
  readonly endpoint?: string;
}

/** `--table`/`--endpoint`, else local mode's data, as `npm run query` resolves them. */
export function openTable(options: TableOptions): Promise<QueryTarget> {
  const endpoint = options.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB;
  return resolveTarget({
    ...(options.table ? { table: options.table } : {}),
    ...(endpoint ? { endpoint } : {}),
    data: localData(process.env.DATA_DIR),
    ...(process.env.TABLE_NAME ? { localTableName: process.env.TABLE_NAME } : {}),
  });
}

/** The options every command that reads the table takes. */
export function withTableOptions(command: Command): Command {
  return command
    .option('--table <name>', 'a deployed table (usual AWS_REGION / AWS_PROFILE / credentials)')
    .option(
      '--endpoint <url>',
      'a DynamoDB-compatible endpoint (default AWS_ENDPOINT_URL_DYNAMODB); else local mode data',
    );
}
