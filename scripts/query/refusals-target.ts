import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { refusalsTableName } from '../../lambda/refusals/refusals-table.js';
import { localData } from '../shared/local-data.js';
import { type QueryTarget, resolveTarget } from './query-target.js';

export interface RefusalsTargetFlags {
  /** A deployed refusals table (stack output RefusalsTableName). */
  readonly table?: string;
  readonly endpoint?: string;
}

/**
 * Runs `use` against the refusals table: the one named by `--table`, else the one beside local
 * mode's transactions table (found as `npm run query` finds it: the running server, the data
 * folder, or `--endpoint`).
 */
export async function withRefusalsTable<T>(
  flags: RefusalsTargetFlags,
  use: (target: QueryTarget) => Promise<T>,
): Promise<T> {
  const endpoint = flags.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB;
  const target = await resolveTarget({
    ...(flags.table ? { table: flags.table } : {}),
    ...(endpoint ? { endpoint } : {}),
    data: localData(process.env.DATA_DIR),
    ...(process.env.TABLE_NAME ? { localTableName: process.env.TABLE_NAME } : {}),
  });
  const tableName =
    flags.table ?? (process.env.REFUSALS_TABLE_NAME || refusalsTableName(target.tableName));
  try {
    return await use({ ...target, tableName });
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
    throw new Error(`No refusals table ${tableName} in ${target.description}.`, { cause: error });
  } finally {
    await target.close();
  }
}
