import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, test } from 'vitest';
import { refusalsIndex, refusalsTable } from '../../../lambda/refusals/refusals-table.js';
import { synthesize } from '../synth.js';

const { template, stack } = synthesize();
const refusalsKey = [{ AttributeName: refusalsTable.partitionKey, KeyType: 'HASH' }];

describe('refusals table', () => {
  test('is keyed by the body digest and expires items by TTL on expiresAt', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: refusalsKey,
      TimeToLiveSpecification: { AttributeName: refusalsTable.expiresAt, Enabled: true },
    });
  });

  test('has no stream, so a refusal never becomes an event', () => {
    const tables = template.findResources('AWS::DynamoDB::Table', {
      Properties: { KeySchema: refusalsKey },
    });
    const [properties] = Object.values(tables).map((table) => table.Properties);
    expect(Object.keys(tables)).toHaveLength(1);
    expect(properties.StreamSpecification).toBeUndefined();
  });

  test('has one index, by last delivery in 16 partitions, that carries no body and no headers', () => {
    const tables = template.findResources('AWS::DynamoDB::Table', {
      Properties: { KeySchema: refusalsKey },
    });
    const [properties] = Object.values(tables).map((table) => table.Properties);
    // CloudFormation creates at most one index per stack update: this change adds exactly one.
    expect(properties.GlobalSecondaryIndexes).toHaveLength(1);
    const [index] = properties.GlobalSecondaryIndexes;
    expect(index).toMatchObject({
      IndexName: refusalsIndex.indexName,
      KeySchema: [
        { AttributeName: refusalsTable.listShard, KeyType: 'HASH' },
        { AttributeName: refusalsTable.lastReceivedAt, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'INCLUDE' },
    });
    expect(index.Projection.NonKeyAttributes).not.toContain('rawBody');
    expect(index.Projection.NonKeyAttributes).not.toContain('headers');
  });

  test('is the only table with TTL: nothing expires where transactions are recorded', () => {
    const withTtl = template.findResources('AWS::DynamoDB::Table', {
      Properties: { TimeToLiveSpecification: Match.anyValue() },
    });
    expect(Object.values(withTtl).map((table) => table.Properties.KeySchema)).toEqual([
      refusalsKey,
    ]);
  });

  test('is named to the receiver, which may only UpdateItem on it', () => {
    const refusalsRef = { Ref: stack.getLogicalId(stack.refusalsTable.node.defaultChild as never) };
    template.hasResourceProperties('AWS::Lambda::Function', {
      Environment: { Variables: Match.objectLike({ REFUSALS_TABLE_NAME: refusalsRef }) },
    });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Sid: 'KeepRefusals',
            Action: 'dynamodb:UpdateItem',
            Resource: { 'Fn::GetAtt': [refusalsRef.Ref, 'Arn'] },
          }),
        ]),
      },
    });
  });

  test('is retained, with point-in-time recovery, and its name is a stack output', () => {
    template.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        KeySchema: refusalsKey,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
      DeletionPolicy: 'Retain',
    });
    template.hasOutput('RefusalsTableName', Match.anyValue());
  });
});
