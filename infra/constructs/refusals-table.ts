import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { refusalsTable, refusalsTableDefinition } from '../../lambda/refusals/refusals-table.js';
import { keptTableProps } from './kept-table-props.js';
import { addTableIndexes } from './table-indexes.js';

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
 * nothing where payments are recorded. One index, from the shared definition local mode uses
 * too, so the tools list and find refusals without scanning (lambda/refusals/refusals-table.ts).
 */
export class RefusalsTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: RefusalsTableProps = {}) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: refusalsTable.partitionKey, type: AttributeType.STRING },
      timeToLiveAttribute: refusalsTable.expiresAt,
      // Kept like the transactions: the bodies are the only copy of what the gateway was
      // refused, and refused transactions may still need settling.
      ...keptTableProps(props.encryptionKey),
    });
    addTableIndexes(this.table, refusalsTableDefinition);
  }
}
