import type { DynamoDBClient, UpdateItemCommandInput } from '@aws-sdk/client-dynamodb';
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, test } from 'vitest';
import {
  resolutionWrittenAttributes,
  settleWrittenAttributes,
} from '../../../lambda/settle/written-attributes.js';
import { resolveRefusal } from '../../../scripts/operations/refusals/refusal-resolution.js';
import { actionsOf, type PolicyStatementJson, synthesize } from '../synth.js';

const { stack, template } = synthesize();
const policyId = stack.getLogicalId(stack.settlePolicy.policy.node.defaultChild as never);
const statements = (
  template.toJSON().Resources[policyId] as {
    Properties: { PolicyDocument: { Statement: (PolicyStatementJson & { Sid?: string })[] } };
  }
).Properties.PolicyDocument.Statement;
const bySid = (sid: string) => statements.find((statement) => statement.Sid === sid);
const tableArn = stack.resolve(stack.table.tableArn);
const refusalsArn = stack.resolve(stack.refusalsTable.tableArn);

describe('the settle policy (operators who settle conflicts)', () => {
  test('is a managed policy the stack outputs for attaching, attached to no one', () => {
    template.hasResourceProperties('AWS::IAM::ManagedPolicy', {
      Description: Match.stringLikeRegexp('settle conflicts'),
    });
    const properties = template.toJSON().Resources[policyId].Properties;
    expect(properties.Roles ?? properties.Users ?? properties.Groups).toBeUndefined();
    const [output] = Object.values(template.findOutputs('SettlePolicyArn'));
    expect(output?.Value).toEqual({ Ref: policyId });
  });

  test('allows writing only UpdateItem, naming only the attributes a settle writes', () => {
    const write = bySid('WriteOnlySettlementAttributes');
    expect(actionsOf(write as PolicyStatementJson)).toEqual(['dynamodb:UpdateItem']);
    expect(write?.Resource).toEqual(tableArn);
    const condition = (write?.Condition ?? {}) as Record<string, Record<string, string[]>>;
    const attributes = condition['ForAllValues:StringEquals']?.['dynamodb:Attributes'];
    expect(attributes).toEqual([...settleWrittenAttributes]);
    // What marks an item's kind and place stays out of reach.
    for (const kept of ['record', 'receivedAt', 'conflictOf'])
      expect(attributes).not.toContain(kept);
  });

  test('allows on the refusals table only UpdateItem naming the key, shard and resolution', () => {
    const write = bySid('WriteOnlyRefusalResolution');
    expect(actionsOf(write as PolicyStatementJson)).toEqual(['dynamodb:UpdateItem']);
    expect(write?.Resource).toEqual(refusalsArn);
    const condition = (write?.Condition ?? {}) as Record<string, Record<string, string | string[]>>;
    const attributes = condition['ForAllValues:StringEquals']?.['dynamodb:Attributes'];
    expect(attributes).toEqual(['digest', 'listShard', 'resolution']);
    expect(attributes).toEqual([...resolutionWrittenAttributes]);
    expect(condition.StringEqualsIfExists?.['dynamodb:ReturnValues']).toBe('NONE');
    // The same attributes bound the deny that holds beside a broader grant.
    const deny = bySid('NeverWriteOtherRefusalAttributes');
    expect(deny?.Effect).toBe('Deny');
    expect(deny?.Resource).toEqual(refusalsArn);
    expect(JSON.stringify(deny?.Condition)).toContain(JSON.stringify(attributes));
  });

  test('names in the resolution list every attribute the write itself names, and no other', async () => {
    const sent: UpdateItemCommandInput[] = [];
    const client = {
      send: async (command: { input: UpdateItemCommandInput }) => {
        sent.push(command.input);
        return {};
      },
    } as unknown as DynamoDBClient;
    await resolveRefusal({ client, tableName: 'Refusals' }, 'ab12', {
      by: 'arn:aws:iam::123456789012:role/operator',
      at: '2026-01-01T00:00:00.000Z',
      why: 'ticket 7',
      how: 'marked',
    });
    const [input] = sent;
    const named = new Set([
      ...Object.keys(input?.Key ?? {}),
      ...Object.values(input?.ExpressionAttributeNames ?? {}),
    ]);
    expect([...named].sort()).toEqual([...resolutionWrittenAttributes].sort());
    // Nothing asked back, so `StringEqualsIfExists dynamodb:ReturnValues NONE` lets it through.
    expect(input?.ReturnValues ?? 'NONE').toBe('NONE');
  });

  test('denies destroying or unprotecting either table and everything under it', () => {
    const resources = JSON.stringify(bySid('NeverDestroyOrUnprotect')?.Resource);
    for (const arn of [tableArn, refusalsArn]) {
      expect(resources).toContain(JSON.stringify(arn));
      expect(resources).toContain(JSON.stringify({ 'Fn::Join': ['', [arn, '/*']] }));
    }
  });

  test('denies every other write: put, delete, batches, PartiQL, the table, its TTL and backups', () => {
    const deny = bySid('NeverDestroyOrUnprotect');
    expect(deny?.Effect).toBe('Deny');
    expect(actionsOf(deny as PolicyStatementJson)).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'dynamodb:DeleteItem',
        'dynamodb:BatchWriteItem',
        'dynamodb:PartiQLUpdate',
        'dynamodb:DeleteTable',
        'dynamodb:UpdateTimeToLive',
        'dynamodb:UpdateContinuousBackups',
      ]),
    );
    // Not an IAM action: each item of a transaction is authorized as the write it is.
    expect(actionsOf(deny as PolicyStatementJson)).not.toContain('dynamodb:TransactWriteItems');
    const allowed = statements
      .filter((statement) => statement.Effect === 'Allow')
      .flatMap((statement) => actionsOf(statement));
    expect(
      allowed.filter(
        (action) => !/^dynamodb:(GetItem|BatchGetItem|Query|Scan|UpdateItem)$/.test(action),
      ),
    ).toEqual([]);
  });

  test('reads transactions by key and conflicts from their index: no scan of the table, no wildcard', () => {
    const byKey = bySid('ReadTransactionsByKey');
    expect(actionsOf(byKey as PolicyStatementJson).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
    ]);
    expect(byKey?.Resource).toEqual(tableArn);
    const conflicts = bySid('ReadConflicts');
    expect(actionsOf(conflicts as PolicyStatementJson).sort()).toEqual([
      'dynamodb:Query',
      'dynamodb:Scan',
    ]);
    expect(JSON.stringify(conflicts?.Resource)).toContain('/index/byConflictOf');
    expect(
      JSON.stringify(statements.filter((statement) => statement.Effect === 'Allow')),
    ).not.toContain('*');
  });
});
