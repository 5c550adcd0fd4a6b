import { describe, expect, test } from 'vitest';
import { synthesize } from './synth.js';

const { template, stack } = synthesize();
/** An output's value as JSON text (deploy-time values stay intrinsic functions). */
const output = (name: string): string => {
  const [found] = Object.values(template.findOutputs(name));
  expect(found, `output ${name}`).toBeDefined();
  return JSON.stringify(found?.Value);
};

describe('stack outputs', () => {
  test('give the callback URL: the stage URL plus /callback', () => {
    const url = output('CallbackUrl');
    expect(url).toContain(JSON.stringify(stack.resolve(stack.api.api.restApiId)));
    expect(url).toMatch(/\/callback"\]\]/);
  });

  test('give the table name', () => {
    expect(output('TableName')).toBe(JSON.stringify(stack.resolve(stack.table.tableName)));
  });

  test('give the secret name', () => {
    expect(output('SecretName')).toBe(JSON.stringify(stack.resolve(stack.secret.secretName)));
  });

  test('give the dashboard URL', () => {
    const url = output('DashboardUrl');
    expect(url).toContain('console.aws.amazon.com/cloudwatch/home');
    expect(url).toContain(JSON.stringify(stack.resolve(stack.dashboard.dashboard.dashboardName)));
  });

  test('give the read-only console policy, attached to no one', () => {
    const id = stack.getLogicalId(stack.consoleReadPolicy.policy.node.defaultChild as never);
    expect(output('ConsoleReadPolicyArn')).toBe(JSON.stringify({ Ref: id }));
    const properties = template.toJSON().Resources[id].Properties;
    expect(properties.Roles ?? properties.Users ?? properties.Groups).toBeUndefined();
  });
});
