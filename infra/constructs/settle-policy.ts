import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { settleWrittenAttributes } from '../../lambda/settle/written-attributes.js';
import { indexNames } from '../../lambda/storage/table-definition.js';

export interface SettlePolicyProps {
  /** The transactions table. */
  readonly table: ITable;
}

/**
 * A managed policy for operators who settle conflicts (`npm run settle`, `npm run query --
 * conflicts`, `get`): read the table and its conflicts index, and UpdateItem naming only the
 * attributes a settle writes. Everything else that writes (PutItem, DeleteItem, batches,
 * transactions, PartiQL, the table itself) is denied outright, so attaching it to a role that
 * holds broader rights elsewhere still cannot delete or replace an item through this table.
 *
 * What IAM cannot say: it cannot require the write's condition expression, so a holder could
 * hand-write an UpdateItem on those attributes without the history. docs/deploy.md says so; the
 * table's stream and point-in-time recovery still record every write.
 */
export class SettlePolicy extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: SettlePolicyProps) {
    super(scope, id);
    const { table } = props;
    const conflictsIndexArn = `${table.tableArn}/index/${indexNames.byConflictOf}`;
    this.policy = new ManagedPolicy(this, 'Policy', {
      description:
        'Callback receiver: settle conflicts (npm run settle): read the transactions, write a ' +
        'correction or close a conflict; never delete or replace an item',
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
            'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...settleWrittenAttributes] },
            // Nothing comes back from the write: the command reads before it writes.
            StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
          },
        }),
        new PolicyStatement({
          sid: 'NeverDeleteOrReplace',
          effect: Effect.DENY,
          actions: [
            'dynamodb:PutItem',
            'dynamodb:DeleteItem',
            'dynamodb:BatchWriteItem',
            'dynamodb:TransactWriteItems',
            'dynamodb:PartiQLInsert',
            'dynamodb:PartiQLUpdate',
            'dynamodb:PartiQLDelete',
            'dynamodb:DeleteTable',
            'dynamodb:UpdateTable',
            'dynamodb:RestoreTableFromBackup',
            'dynamodb:RestoreTableToPointInTime',
          ],
          resources: [table.tableArn, `${table.tableArn}/*`],
        }),
      ],
    });
  }
}
