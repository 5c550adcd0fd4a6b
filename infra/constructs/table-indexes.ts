import { AttributeType, ProjectionType, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { TableDefinition } from '../../lambda/storage/table-definition.js';

/**
 * Every index a shared table definition names, with its projection, so the stack builds them
 * exactly as local mode does. CloudFormation adds at most one index per stack update: a second
 * new one needs a second deploy.
 */
export function addTableIndexes(table: Table, definition: TableDefinition): void {
  for (const index of definition.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
      ...(index.projection === 'all'
        ? { projectionType: ProjectionType.ALL }
        : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
    });
  }
}
