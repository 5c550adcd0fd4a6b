import { AttributeType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { type TableDefinition, transactionsTable } from '../../lambda/storage/table-definition.js';
import { keptTableProps } from './kept-table-props.js';
import { addTableIndexes } from './table-indexes.js';

export interface TransactionsTableProps {
  /**
   * Customer-managed key for encryption at rest.
   * @default - the AWS-owned DynamoDB key (no KMS charges, no key policy to manage)
   */
  readonly encryptionKey?: IKey;
  /**
   * Key schema and indexes; the shared definition local mode and the tests use too.
   * @default transactionsTable
   */
  readonly definition?: TableDefinition;
}

/** The transactions table, built from the shared definition so AWS and local mode cannot drift. */
export class TransactionsTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: TransactionsTableProps = {}) {
    super(scope, id);
    const definition = props.definition ?? transactionsTable;

    this.table = new Table(this, 'Table', {
      partitionKey: { name: definition.partitionKey, type: AttributeType.STRING },
      // The system of record for payments: see keptTableProps.
      ...keptTableProps(props.encryptionKey),
      // New images only: downstream consumers need what was stored, never the before-image.
      stream: StreamViewType.NEW_IMAGE,
    });

    addTableIndexes(this.table, definition);
  }
}
