import { Match } from 'aws-cdk-lib/assertions';
import type { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../lambda/config/config.js';
import { everythingOn, functionRoleStatements, propertiesOf, synthesize } from './synth.js';

// One synthesis with every context option on: WAF allow-list, e-mail, CMK, hash mode, limits.
const synth = synthesize(everythingOn);
const { template, stack } = synth;
const keyArn = stack.resolve(stack.encryptionKey?.keyArn);

describe('with allowedSourceIps', () => {
  test('attaches a regional WAF web ACL to the stage that blocks by default', () => {
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Block: {} },
    });
    template.hasResourceProperties('AWS::WAFv2::WebACLAssociation', {
      ResourceArn: Match.objectLike({
        'Fn::Join': Match.arrayWith([
          Match.arrayWith([stack.resolve(stack.api.api.deploymentStage.stageName)]),
        ]),
      }),
    });
  });

  test('allows the listed addresses, IPv4 and IPv6 in separate IP sets', () => {
    template.hasResourceProperties('AWS::WAFv2::IPSet', {
      IPAddressVersion: 'IPV4',
      Addresses: ['203.0.113.0/28', '198.51.100.7/32'],
    });
    template.hasResourceProperties('AWS::WAFv2::IPSet', {
      IPAddressVersion: 'IPV6',
      Addresses: ['2001:db8::/64'],
    });
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        Match.objectLike({ Action: { Allow: {} }, Statement: { OrStatement: Match.anyValue() } }),
      ]),
    });
  });

  test('rate-limits an address before the allow rule, at half the stage rate over 5 minutes', () => {
    template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        Match.objectLike({
          Name: 'RateLimitPerAddress',
          Priority: 1,
          Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: (50 * 300) / 2 } },
        }),
        Match.objectLike({ Name: 'AllowPaymentGateway', Priority: 2 }),
      ]),
    });
  });

  test('refuses any other address with a problem that names the source, not the hash', () => {
    const acl = propertiesOf(synth, stack.api.webAcl as CfnWebACL) as {
      DefaultAction: unknown;
      CustomResponseBodies: Record<string, { Content: string }>;
    };
    expect(acl.DefaultAction).toEqual({
      Block: {
        CustomResponse: { ResponseCode: 403, CustomResponseBodyKey: 'sourceNotAllowed' },
      },
    });
    const problem = JSON.parse(acl.CustomResponseBodies.sourceNotAllowed?.Content ?? '{}');
    expect(problem).toMatchObject({
      type: 'urn:callback-receiver:problem:source-address-not-allowed',
      status: 403,
    });
    expect(problem.type).not.toBe('urn:callback-receiver:problem:hash-mismatch');
  });
});

describe('with customerManagedKey', () => {
  test('creates one rotating KMS key that outlives the stack', () => {
    template.resourceCountIs('AWS::KMS::Key', 1);
    template.hasResource('AWS::KMS::Key', {
      Properties: Match.objectLike({ EnableKeyRotation: true }),
      DeletionPolicy: 'Retain',
    });
  });

  test('encrypts the table with it', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: keyArn },
    });
  });

  test('encrypts the created secret with it', () => {
    template.hasResourceProperties('AWS::SecretsManager::Secret', {
      KmsKeyId: keyArn,
    });
  });

  test('encrypts the alarm topic with it and lets CloudWatch publish', () => {
    template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: keyArn });
    template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: Match.objectLike({
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            // Only this account's alarms may use the key.
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ]),
      }),
    });
  });

  test('encrypts the event bus, its archive and the dead-letter queue with it', () => {
    template.hasResourceProperties('AWS::Events::EventBus', { KmsKeyIdentifier: keyArn });
    template.hasResourceProperties('AWS::Events::Archive', { KmsKeyIdentifier: keyArn });
    template.hasResourceProperties('AWS::SQS::Queue', { KmsMasterKeyId: keyArn });
  });

  test('lets the function decrypt with it only through DynamoDB and Secrets Manager', () => {
    const kms = functionRoleStatements(synth).filter((s) => String(s.Action).startsWith('kms:'));
    expect(kms).toHaveLength(1);
    expect(kms[0]).toMatchObject({
      Action: 'kms:Decrypt',
      Resource: keyArn,
      Condition: { StringEquals: { 'kms:ViaService': expect.any(Array) } },
    });
    expect(JSON.stringify(kms[0]?.Condition)).toMatch(/dynamodb\..*secretsmanager\./);
  });
});

describe('with the other context options', () => {
  test('subscribes alarmEmail to the alarm topic', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'payments-oncall@example.com',
      TopicArn: stack.resolve(stack.alarmTopic.topicArn),
    });
  });

  test('passes hashMode to the function, still valid for its config schema', () => {
    const { Variables, config } = functionEnvironment();
    expect(Variables.HASH_MODE).toBe('required');
    expect(config.hashMode).toBe('required');
  });

  test('passes refusalsKeptPerMinute to the function as the bound its config reads', () => {
    const { Variables, config } = functionEnvironment();
    expect(Variables.REFUSALS_KEPT_PER_MINUTE).toBe('30');
    expect(config.refusals.keptPerMinute).toBe(30);
  });

  test('uses the stage throttle from context', () => {
    expect(propertiesOf(synth, stack.api.api.deploymentStage).MethodSettings).toEqual([
      expect.objectContaining({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 80 }),
    ]);
  });
});

/** The function's synthesized environment, and the config it loads once deploy fills the tokens. */
function functionEnvironment() {
  const { Variables } = propertiesOf(synth, stack.function).Environment as {
    Variables: Record<string, unknown>;
  };
  const config = loadConfig({
    ...(Variables as NodeJS.ProcessEnv),
    TABLE_NAME: 'resolved-at-deploy',
    REFUSALS_TABLE_NAME: 'resolved-at-deploy',
    CALLBACK_API_KEY_SECRET_ID: 'resolved-at-deploy',
  });
  return { Variables, config };
}
