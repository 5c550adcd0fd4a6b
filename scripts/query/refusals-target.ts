import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { refusalsTableName } from '../../lambda/refusals/refusals-table.js';
import { openTarget, type QueryTarget, type TargetFlags } from './query-target.js';

/** `--table` names a deployed refusals table (stack output RefusalsTableName). */
export type RefusalsTargetFlags = TargetFlags;

/**
 * Runs `use` against the refusals table: the one named by `--table`, else the one beside local
 * mode's transactions table (found as `npm run query` finds it: the running server, the data
 * folder, or `--endpoint`).
 */
export async function withRefusalsTable<T>(
  flags: RefusalsTargetFlags,
  use: (target: QueryTarget) => Promise<T>,
): Promise<T> {
  const target = await openTarget(flags);
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
