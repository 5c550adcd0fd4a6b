import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from 'vitest';
import { stackTables } from '../../../scripts/console/stack-tables.js';

/**
 * CloudFormation has no local engine: DescribeStacks is answered by a stand-in that returns what
 * AWS returns for the stack (its outputs as infra/callback-receiver-stack.ts declares them), or
 * the error AWS gives for a stack that does not exist.
 */
function answering(answer: () => unknown): Pick<CloudFormationClient, 'send'> {
  return { send: (async () => answer()) as CloudFormationClient['send'] };
}

const outputs = [
  {
    OutputKey: 'CallbackUrl',
    OutputValue: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/callback',
  },
  { OutputKey: 'TableName', OutputValue: 'CallbackReceiver-TableCD117FA1-1X2Y3Z' },
  { OutputKey: 'RefusalsTableName', OutputValue: 'CallbackReceiver-RefusalsA1B2-9Q8R7S' },
];

describe('the tables of a deployed stack, from its outputs', () => {
  it('reads both table names and the callback URL', async () => {
    const found = await stackTables(
      answering(() => ({ Stacks: [{ Outputs: outputs }] })),
      'CallbackReceiver',
    );
    expect(found).toEqual({
      tableName: 'CallbackReceiver-TableCD117FA1-1X2Y3Z',
      refusalsTableName: 'CallbackReceiver-RefusalsA1B2-9Q8R7S',
      callbackUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/callback',
    });
  });

  it('names a stack that does not exist as a usage error', async () => {
    const missing = answering(() => {
      throw Object.assign(new Error('Stack with id Nope does not exist'), {
        name: 'ValidationError',
      });
    });
    await expect(stackTables(missing, 'Nope')).rejects.toMatchObject({
      name: 'UsageError',
      message: expect.stringMatching(/^no stack Nope in this region: check --stack and AWS_REGION/),
    });
  });

  it('refuses a stack without the outputs, pointing at --table', async () => {
    const other = answering(() => ({ Stacks: [{ Outputs: outputs.slice(0, 2) }] }));
    await expect(stackTables(other, 'Other')).rejects.toThrow(
      /no TableName and RefusalsTableName outputs.*--table and --refusals-table/,
    );
  });

  it('refuses a stack with no outputs yet (one still being created) the same way', async () => {
    for (const answer of [{ Stacks: [{}] }, { Stacks: [] }, {}]) {
      await expect(
        stackTables(
          answering(() => answer),
          'Creating',
        ),
      ).rejects.toThrow(/^stack Creating has no TableName and RefusalsTableName outputs/);
    }
  });

  it('lets any other failure through unchanged (credentials, network)', async () => {
    const denied = answering(() => {
      throw Object.assign(new Error('not authorized to perform: DescribeStacks'), {
        name: 'AccessDenied',
      });
    });
    await expect(stackTables(denied, 'CallbackReceiver')).rejects.toThrow(/not authorized/);
  });
});
