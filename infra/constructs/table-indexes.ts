import { AttributeType, ProjectionType, type Table } from 'aws-cdk-lib/aws-dynamodb';
import type { TableDefinition } from '../../lambda/storage/table-definition.js';

/**
 * Every index a shared table definition names, with its projection, so the stack builds them
 * exactly as local mode does. CloudFormation creates or deletes at most one index per stack
 * update, so the definition changes them one at a time (its `ListIndexVersions`); the tests
 * check every step docs/deploy.md describes (test/infra/constructs/table-indexes.test.ts).
 */
export function addTableIndexes(table: Table, definition: TableDefinition): void {
  for (const index of definition.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: {
        name: index.partitionKey,
        type: index.partitionKeyType === 'N' ? AttributeType.NUMBER : AttributeType.STRING,
      },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
      ...(index.projection === 'all'
        ? { projectionType: ProjectionType.ALL }
        : index.projection === 'keys'
          ? { projectionType: ProjectionType.KEYS_ONLY }
          : { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection] }),
    });
  }
}
