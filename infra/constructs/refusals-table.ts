import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { refusalsTable } from '../../lambda/refusals/refusals-table.js';

export interface RefusalsTableProps {
  /**
   * Customer-managed key for encryption at rest (refused bodies carry names, like transactions).
   * @default - the AWS-owned DynamoDB key
   */
  readonly encryptionKey?: IKey;
}

/**
 * Authenticated deliveries refused for their content, one item per distinct body, each deleted by
 * DynamoDB TTL after the retention period. Apart from the transactions table on purpose: no
 * stream (a refusal never becomes an event), no transaction index sees it, and TTL deletes
 * nothing where payments are recorded.
 */
export class RefusalsTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: RefusalsTableProps = {}) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: refusalsTable.partitionKey, type: AttributeType.STRING },
      // Refusals are rare and bursty: on demand costs nothing while none arrive.
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: refusalsTable.expiresAt,
      // PITR: the kept bodies are the only copy of what the gateway was refused.
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Refused transactions may still need settling: the table outlives the stack (RETAIN).
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      ...(props.encryptionKey
        ? { encryption: TableEncryption.CUSTOMER_MANAGED, encryptionKey: props.encryptionKey }
        : { encryption: TableEncryption.DEFAULT }),
    });
  }
}
