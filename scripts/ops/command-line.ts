import type { Command } from 'commander';
import { type QueryTarget, resolveTarget } from '../query/query-target.js';
import { localData } from '../shared/local-data.js';

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
