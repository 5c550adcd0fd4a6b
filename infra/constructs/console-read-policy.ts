import { Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { refusalsIndex } from '../../lambda/refusals/refusals-table.js';
import { indexNames } from '../../lambda/storage/table-definition.js';
import { acknowledgeFinding } from '../nag.js';

export interface ConsoleReadPolicyProps {
  /** The transactions table. */
  readonly table: ITable;
  /** The refusals table. */
  readonly refusalsTable: ITable;
}

/**
 * A managed policy holding exactly what `npm run console -- --stack <name>` needs without
 * `--allow-actions` (scripts/console/): the stack's outputs for the table names, each table's
 * description (the console checks both exist), items by key, the indexes' queries, the conflicts
 * index scanned for the open conflicts, and the stack's metrics for the Activity view. No write,
 * and no scan of a whole table: every list the console shows is an index's.
 *
 * `sts:GetCallerIdentity` (which names the operator) needs no permission.
 */
export class ConsoleReadPolicy extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: ConsoleReadPolicyProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const tables = [props.table.tableArn, props.refusalsTable.tableArn];
    this.policy = new ManagedPolicy(this, 'Policy', {
      description:
        'Callback receiver: the operator console, read-only (npx callback-receiver console --stack): ' +
        'the stack outputs, both tables by key and by index, the stack metrics',
      statements: [
        new PolicyStatement({
          sid: 'ReadStackOutputs',
          actions: ['cloudformation:DescribeStacks'],
          // The stack's own ID (its ARN, ending in a generated UUID): this stack and no other.
          resources: [stack.stackId],
        }),
        new PolicyStatement({
          sid: 'ReadItemsByKey',
          actions: ['dynamodb:DescribeTable', 'dynamodb:GetItem', 'dynamodb:BatchGetItem'],
          resources: tables,
        }),
        new PolicyStatement({
          sid: 'QueryIndexes',
          actions: ['dynamodb:Query'],
          resources: [
            ...Object.values(indexNames).map((name) => `${props.table.tableArn}/index/${name}`),
            `${props.refusalsTable.tableArn}/index/${refusalsIndex.indexName}`,
          ],
        }),
        new PolicyStatement({
          sid: 'ScanConflicts',
          actions: ['dynamodb:Scan'],
          resources: [`${props.table.tableArn}/index/${indexNames.byConflictOf}`],
        }),
        // GetMetricData has no resource-level permission: it is allowed on "*" or not at all.
        new PolicyStatement({
          sid: 'ReadMetrics',
          actions: ['cloudwatch:GetMetricData'],
          resources: ['*'],
        }),
      ],
    });
    acknowledgeFinding(
      this.policy,
      'AwsSolutions-IAM5[Resource::*]',
      'cloudwatch:GetMetricData supports no resource-level permission; it reads metrics only.',
    );
  }
}
