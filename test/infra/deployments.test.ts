import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, test } from 'vitest';
import { CallbackReceiverStack } from '../../infra/callback-receiver-stack.js';
import { addNagChecks } from '../../infra/nag.js';
import {
  cdkContext,
  functionRoleStatements,
  propertiesOf,
  type Synthesized,
  synthesize,
} from './synth.js';

const keyArn = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';

// The meaningful combinations beside the default (every test file) and everything on
// (options.test.ts): each one synthesizes with cdk-nag, or this file fails to load.
const withoutLoggingRole = synthesize({ apiGatewayCloudWatchRole: false });
const withoutWaf = synthesize({ waf: false, reservedConcurrency: 'none' });
const existingSecretUnderItsKey = synthesize({
  existingSecretName: 'payments/callback-api-keys',
  existingSecretKeyArn: keyArn,
  customerManagedKey: true,
});
const production = synthesize({
  terminationProtection: true,
  tags: { environment: 'production', owner: 'payments' },
  reservedConcurrency: 50,
});
const receiverOf = (synth: Synthesized) => propertiesOf(synth, synth.stack.function);

describe('deployment options', () => {
  test('apiGatewayCloudWatchRole=false synthesizes, with no account-level logging role', () => {
    withoutLoggingRole.template.resourceCountIs('AWS::ApiGateway::Account', 0);
    expect(
      Object.keys(withoutLoggingRole.template.findResources('AWS::IAM::Role')).some((id) =>
        id.includes('CloudWatchRole'),
      ),
    ).toBe(false);
  });

  test('waf=false leaves the stage without a web ACL', () => {
    withoutWaf.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    withoutWaf.template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
  });

  test('reserves no concurrency by default, so a new account can deploy; the number asked for otherwise', () => {
    expect(receiverOf(withoutLoggingRole).ReservedConcurrentExecutions).toBeUndefined();
    expect(receiverOf(production).ReservedConcurrentExecutions).toBe(50);
    expect(receiverOf(withoutWaf).ReservedConcurrentExecutions).toBeUndefined();
    // The stream consumer is never capped by the receiver's reservation.
    const consumer = propertiesOf(withoutLoggingRole, withoutLoggingRole.stack.events.function);
    expect(consumer.ReservedConcurrentExecutions).toBeUndefined();
  });

  test('existingSecretKeyArn lets the function decrypt the secret with that key, through Secrets Manager only', () => {
    const statement = functionRoleStatements(existingSecretUnderItsKey).find(
      (found) => found.Sid === 'DecryptApiKeysThroughSecretsManager',
    );
    expect(statement).toMatchObject({ Action: 'kms:Decrypt', Resource: keyArn });
    expect(JSON.stringify(statement?.Condition)).toContain('secretsmanager.');
  });

  test('terminationProtection and tags reach the stack and every taggable resource', () => {
    expect(production.stack.terminationProtection).toBe(true);
    expect(withoutWaf.stack.terminationProtection).toBe(false);
    const [queue] = Object.values(production.template.findResources('AWS::SQS::Queue'));
    expect(queue?.Properties.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'environment', Value: 'production' },
        { Key: 'owner', Value: 'payments' },
        { Key: 'service', Value: 'callback-receiver' },
      ]),
    );
  });

  test('a stack prop is validated like a context option', () => {
    expect(() => synthesize({ allowedSourceIps: ['::::/64'] })).toThrow(/"allowedSourceIps"/);
  });
});

describe('two stacks in one account and region', () => {
  // As two `cdk deploy -c stackName=...` would make them; the second leaves the account-level
  // API Gateway logging role to the first (it is one setting per account and region).
  const app = new App({ context: cdkContext });
  const first = new CallbackReceiverStack(app, 'CallbackReceiver');
  const second = new CallbackReceiverStack(app, 'CallbackReceiverStaging', {
    stackName: 'CallbackReceiverStaging',
    apiGatewayCloudWatchRole: false,
  });
  addNagChecks(app);
  const templates = [first, second].map((stack) => Template.fromStack(stack).toJSON());

  /**
   * Every literal name a template gives that must be unique in an account and region: the
   * physical names of its resources, its export names, and the metrics namespaces it emits
   * into and reads (the dimensions inside a namespace may repeat).
   */
  function uniqueNames(template: Record<string, unknown>): string[] {
    const names: string[] = [];
    const namespaces = (value: unknown): void => {
      if (value === null || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        const isNamespace = key === 'Namespace' || key === 'POWERTOOLS_METRICS_NAMESPACE';
        if (isNamespace && typeof child === 'string' && !child.startsWith('AWS/')) {
          names.push(`Namespace=${child}`);
        }
        namespaces(child);
      }
    };
    const resources = template.Resources as Record<
      string,
      { Properties?: Record<string, unknown> }
    >;
    for (const { Properties = {} } of Object.values(resources)) {
      for (const [key, value] of Object.entries(Properties)) {
        if (physicalNameKeys.has(key) && typeof value === 'string') names.push(`${key}=${value}`);
      }
      namespaces(Properties);
    }
    for (const output of Object.values(
      template.Outputs as Record<string, { Export?: { Name: string } }>,
    )) {
      if (output.Export) names.push(`Export=${output.Export.Name}`);
    }
    return [...new Set(names)];
  }
  const physicalNameKeys = new Set([
    'AlarmName',
    'DashboardName',
    'Name',
    'RoleName',
    'TopicName',
    'QueueName',
    'TableName',
    'FunctionName',
    'LogGroupName',
  ]);

  test('name nothing alike: alarms, dashboard, exports, API, web ACL, bus, metrics namespace', () => {
    const [firstNames = [], secondNames = []] = templates.map(uniqueNames);
    expect(firstNames.filter((name) => secondNames.includes(name))).toEqual([]);
    // What the functions emit into and what the alarms read follow the stack name.
    expect(firstNames).toContain('Namespace=CallbackReceiver');
    expect(secondNames).toContain('Namespace=CallbackReceiverStaging');
    expect(secondNames).toContain('Name=CallbackReceiverStaging-callbacks');
    expect(secondNames).toContain('AlarmName=CallbackReceiverStaging-Conflict');
    expect(secondNames).toContain('DashboardName=CallbackReceiverStaging');
    expect(secondNames).toContain('Export=CallbackReceiverStaging-CallbackUrl');
  });

  test('only one of them manages the account-level API Gateway logging role', () => {
    const accounts = templates.map(
      (template) =>
        Object.values(template.Resources as Record<string, { Type: string }>).filter(
          (resource) => resource.Type === 'AWS::ApiGateway::Account',
        ).length,
    );
    expect(accounts).toEqual([1, 0]);
  });
});
