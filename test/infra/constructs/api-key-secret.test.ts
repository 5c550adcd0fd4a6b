import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, test } from 'vitest';
import { functionRoleStatements, propertiesOf, resourcesOf, synthesize } from '../synth.js';

const created = synthesize();
const byName = synthesize({ existingSecretName: 'payments/callback-api-keys' });
const byArn = synthesize({
  existingSecretName:
    'arn:aws:secretsmanager:eu-west-1:111122223333:secret:payments/callback-api-keys-AbCdEf',
});
const secretStatement = (synth: typeof created) =>
  functionRoleStatements(synth).find((s) => s.Action === 'secretsmanager:GetSecretValue');
const environmentOf = (synth: typeof created) =>
  (propertiesOf(synth, synth.stack.function).Environment as { Variables: Record<string, unknown> })
    .Variables;

describe('API key secret', () => {
  test('is created by the stack by default', () => {
    created.template.resourceCountIs('AWS::SecretsManager::Secret', 1);
  });

  test('never holds a key in the template: it starts as an empty key list', () => {
    created.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      SecretString: Match.absent(),
      GenerateSecretString: Match.objectLike({ SecretStringTemplate: '{"keys":[]}' }),
    });
  });

  test('is deleted with the stack (the credential is reissued by the gateway)', () => {
    created.template.hasResource('AWS::SecretsManager::Secret', { DeletionPolicy: 'Delete' });
  });

  test('can be an existing secret named in context, which the stack then does not create', () => {
    byName.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    expect(environmentOf(byName).CALLBACK_API_KEY_SECRET_ID).toBe('payments/callback-api-keys');
  });

  test('named by its name, is granted with the 6-character suffix Secrets Manager appends', () => {
    const resource = JSON.stringify(resourcesOf(secretStatement(byName) ?? ({} as never)));
    expect(resource).toContain('secret:payments/callback-api-keys-??????');
  });

  test('named by its complete ARN, is granted exactly that ARN', () => {
    byArn.template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    expect(resourcesOf(secretStatement(byArn) ?? ({} as never))).toEqual([
      'arn:aws:secretsmanager:eu-west-1:111122223333:secret:payments/callback-api-keys-AbCdEf',
    ]);
    expect(environmentOf(byArn).CALLBACK_API_KEY_SECRET_ID).toMatch(/^arn:aws:secretsmanager:/);
  });
});
