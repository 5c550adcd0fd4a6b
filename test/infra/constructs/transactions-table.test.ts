import { Capture, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, test } from 'vitest';
import {
  type IndexDefinition,
  indexNames,
  keyAttributesOf,
  transactionsTable,
} from '../../../lambda/storage/table-definition.js';
import { synthesize } from '../synth.js';

const synth = synthesize();
const { template, stack } = synth;

describe('transactions table', () => {
  test('is keyed by the partition key of the shared definition (reference)', () => {
    expect(transactionsTable.partitionKey).toBe('reference');
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [{ AttributeName: transactionsTable.partitionKey, KeyType: 'HASH' }],
    });
  });

  test('bills on demand', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { BillingMode: 'PAY_PER_REQUEST' });
  });

  test('has point-in-time recovery', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
  });

  test('has deletion protection', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', { DeletionProtectionEnabled: true });
  });

  test('is retained when the stack is deleted or the table replaced', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  test('is encrypted with the AWS-owned key by default (no KMS key in the stack)', () => {
    // SSEEnabled false is DynamoDB's way of saying "AWS-owned key"; KMS would say true.
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      SSESpecification: { SSEEnabled: false },
    });
    template.resourceCountIs('AWS::KMS::Key', 0);
  });

  test('creates every index of the shared definition, with the projection it names', () => {
    for (const index of transactionsTable.indexes) {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        GlobalSecondaryIndexes: Match.arrayWith([
          {
            IndexName: index.indexName,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: projectionOf(index),
          },
        ]),
      });
    }
  });

  test('keeps the raw body out of the list indexes', () => {
    const indexes = new Capture();
    template.hasResourceProperties('AWS::DynamoDB::Table', { GlobalSecondaryIndexes: indexes });
    const byName = new Map(
      (indexes.asArray() as { IndexName: string; Projection: unknown }[]).map((index) => [
        index.IndexName,
        index.Projection,
      ]),
    );
    for (const name of [indexNames.byUser, indexNames.byTime]) {
      expect(byName.get(name)).toMatchObject({ ProjectionType: 'INCLUDE' });
      expect(byName.get(name)).not.toMatchObject({
        NonKeyAttributes: expect.arrayContaining(['rawBody']),
      });
    }
  });

  test('has no index beyond the shared definition', () => {
    const indexes = new Capture();
    template.hasResourceProperties('AWS::DynamoDB::Table', { GlobalSecondaryIndexes: indexes });
    expect(indexes.asArray()).toHaveLength(transactionsTable.indexes.length);
  });

  test('defines exactly the key attributes of the definition, strings but the gateway id', () => {
    const definitions = new Capture();
    template.hasResourceProperties('AWS::DynamoDB::Table', { AttributeDefinitions: definitions });
    expect(definitions.asArray()).toEqual(
      expect.arrayContaining(
        keyAttributesOf().map(({ name, type }) => ({ AttributeName: name, AttributeType: type })),
      ),
    );
    expect(definitions.asArray()).toHaveLength(keyAttributesOf().length);
    expect(definitions.asArray()).toContainEqual({ AttributeName: 'id', AttributeType: 'N' });
  });

  test('streams new images for downstream consumers', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  test('is exposed on the stack, stream included, for constructs added later', () => {
    // Two tables: this one and the refusals table (test/infra/constructs/refusals-table.test.ts).
    template.resourceCountIs('AWS::DynamoDB::Table', 2);
    expect(stack.table.tableStreamArn).toBeDefined();
  });
});

function projectionOf(index: IndexDefinition): Record<string, unknown> {
  return index.projection === 'all'
    ? { ProjectionType: 'ALL' }
    : index.projection === 'keys'
      ? { ProjectionType: 'KEYS_ONLY' }
      : { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection] };
}
