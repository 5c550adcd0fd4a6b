import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../lambda/config/config.js';
import {
  actionsOf,
  bundleOf,
  functionRoleStatements,
  loadInFreshNode,
  propertiesOf,
  resourcesOf,
  synthesize,
} from '../synth.js';

const synth = synthesize();
const { stack } = synth;
const fn = propertiesOf(synth, stack.function);
const environment = (fn.Environment as { Variables: Record<string, unknown> }).Variables;
const statements = functionRoleStatements(synth);
const bundle = bundleOf(synth, fn);

/** Deploy-time values (Ref, GetAtt) become placeholder strings, as Lambda would see strings. */
const asDeployed = (variables: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : `resolved-at-deploy:${JSON.stringify(value)}`,
    ]),
  );

describe('receiver function', () => {
  test('runs on Node.js 24 on arm64', () => {
    expect(fn).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'] });
  });

  test('has explicit memory and a timeout well inside API Gateway’s 29 s', () => {
    expect(fn.MemorySize).toBe(512);
    expect(fn.Timeout).toBe(10);
    // SDK budget (attempts × per-attempt timeout) fits inside the function timeout.
    const { dynamodb } = loadConfig(asDeployed(environment));
    expect((dynamodb.maxAttempts * dynamodb.timeoutMs) / 1000).toBeLessThan(fn.Timeout as number);
    expect(fn.Timeout as number).toBeLessThan(29);
  });

  test('has active X-Ray tracing', () => {
    expect(fn.TracingConfig).toEqual({ Mode: 'Active' });
  });

  test('logs to its own log group with a retention', () => {
    expect(fn.LoggingConfig).toEqual({
      LogGroup: stack.resolve(stack.function.logGroup.logGroupName),
    });
    expect(propertiesOf(synth, stack.function.logGroup)).toMatchObject({ RetentionInDays: 90 });
  });

  test('is bundled as minified ESM with a createRequire banner for CommonJS dependencies', () => {
    expect(existsSync(bundle)).toBe(true);
    const code = readFileSync(bundle, 'utf8');
    expect(code.startsWith('import { createRequire as __createRequire }')).toBe(true);
    // Minified: thousands of characters per line on average, not source formatting.
    expect(code.length / code.split('\n').length).toBeGreaterThan(2000);
    expect(code).toMatch(/export\s*\{[^}]*\bhandler\b/);
  });

  test('bundle loads as ESM on Node and exports the handler', () => {
    // A fresh Node process, as Lambda would start it: CommonJS dependencies must find `require`.
    const result = loadInFreshNode(bundle, { TABLE_NAME: 't', CALLBACK_API_KEYS: 'k' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('function');
  });

  test('has an environment the handler’s own config schema accepts', () => {
    // loadConfig throws, naming each variable it refuses.
    const config = loadConfig(asDeployed(environment));
    expect(config.apiKeys.source).toBe('secret');
    expect(config.hashMode).toBe('if-present');
  });

  test('finds the table and the secret through the environment, never a key', () => {
    expect(environment.TABLE_NAME).toEqual(stack.resolve(stack.table.tableName));
    expect(environment.CALLBACK_API_KEY_SECRET_ID).toEqual(stack.resolve(stack.secret.secretArn));
    expect(environment).not.toHaveProperty('CALLBACK_API_KEYS');
  });

  test('configures Powertools for the service name and metrics namespace', () => {
    expect(environment).toMatchObject({
      POWERTOOLS_SERVICE_NAME: 'callback-receiver',
      POWERTOOLS_METRICS_NAMESPACE: 'CallbackReceiver',
      POWERTOOLS_LOG_LEVEL: 'INFO',
    });
  });

  test('may PutItem and GetItem on the table, UpdateItem on the refusals table, nothing else in DynamoDB', () => {
    const dynamodb = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(
      dynamodb.map((statement) => [actionsOf(statement).sort(), resourcesOf(statement)]),
    ).toEqual([
      [['dynamodb:GetItem', 'dynamodb:PutItem'], [stack.resolve(stack.table.tableArn)]],
      [['dynamodb:UpdateItem'], [stack.resolve(stack.refusalsTable.tableArn)]],
    ]);
  });

  test('may read that one secret and nothing else in Secrets Manager', () => {
    const secrets = statements.filter((s) =>
      actionsOf(s).some((a) => a.startsWith('secretsmanager:')),
    );
    expect(secrets).toHaveLength(1);
    expect(actionsOf(secrets[0] ?? ({} as never))).toEqual(['secretsmanager:GetSecretValue']);
    expect(resourcesOf(secrets[0] ?? ({} as never))).toEqual([
      stack.resolve(stack.secret.secretArn),
    ]);
  });

  // The only "*" is CDK's X-Ray statement for active tracing: xray:PutTraceSegments and
  // xray:PutTelemetryRecords do not support resource-level permissions, so "*" is the only
  // possible value (acknowledged in cdk-nag as AwsSolutions-IAM5[Resource::*]). Every data-plane
  // statement (DynamoDB, Secrets Manager, KMS, logs) must name its resources.
  test('has no wildcard resource in its data-plane statements', () => {
    const dataPlane = statements.filter((s) => !actionsOf(s).every((a) => a.startsWith('xray:')));
    expect(dataPlane.length).toBeGreaterThan(0);
    for (const statement of dataPlane) {
      for (const resource of resourcesOf(statement)) {
        expect(JSON.stringify(resource)).not.toMatch(/[*?]/);
      }
    }
    const wildcard = statements.filter((s) => resourcesOf(s).includes('*'));
    expect(wildcard.map(actionsOf)).toEqual([
      ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
    ]);
  });

  test('writes logs only to its own log group, with no AWS managed policy', () => {
    const logs = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
    expect(logs.flatMap(resourcesOf)).toEqual([stack.resolve(stack.function.logGroup.logGroupArn)]);
    expect(propertiesOf(synth, stack.function.role as never)).toMatchObject({
      AssumeRolePolicyDocument: {
        Statement: [expect.objectContaining({ Principal: { Service: 'lambda.amazonaws.com' } })],
      },
    });
    expect(propertiesOf(synth, stack.function.role as never)).not.toHaveProperty(
      'ManagedPolicyArns',
    );
  });
});
