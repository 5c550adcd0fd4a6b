import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, CfnResource, type Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IConstruct } from 'constructs';
import {
  CallbackReceiverStack,
  type CallbackReceiverStackProps,
} from '../../infra/callback-receiver-stack.js';
import { addNagChecks } from '../../infra/nag.js';

/** The feature flags from cdk.json, so tests synthesize exactly what `cdk synth` does. */
export const cdkContext = JSON.parse(
  readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8'),
).context as Record<string, unknown>;

export interface Synthesized {
  readonly app: App;
  readonly stack: CallbackReceiverStack;
  readonly template: Template;
}

/**
 * Builds the stack as `infra/app.ts` does, cdk-nag included, and synthesizes it once. Synthesis
 * bundles the handler with esbuild, so each test file calls this once at module level and shares
 * the result. cdk-nag runs as a validation plugin during synthesis: an unacknowledged finding
 * makes this throw with the report.
 */
export function synthesize(props: CallbackReceiverStackProps = {}): Synthesized {
  const { app, stack } = buildApp(props);
  return { app, stack, template: Template.fromStack(stack) };
}

/** The app as `infra/app.ts` builds it (cdk.json flags, cdk-nag), not yet synthesized. */
export function buildApp(props: CallbackReceiverStackProps = {}): {
  app: App;
  stack: CallbackReceiverStack;
} {
  const app = new App({ context: cdkContext });
  const stack = new CallbackReceiverStack(app, props.stackName ?? 'CallbackReceiver', props);
  addNagChecks(app);
  return { app, stack };
}

/** A configuration with every option turned on, for the tests of optional resources. */
export const everythingOn: CallbackReceiverStackProps = {
  hashMode: 'required',
  throttleRateLimit: 50,
  throttleBurstLimit: 80,
  allowedSourceIps: ['203.0.113.0/28', '198.51.100.7/32', '2001:db8::/64'],
  alarmEmail: 'payments-oncall@example.com',
  customerManagedKey: true,
  refusalsKeptPerMinute: 30,
};

/** The synthesized properties of the CloudFormation resource a construct wraps. */
export function propertiesOf(
  { stack, template }: Synthesized,
  construct: IConstruct,
): Record<string, unknown> {
  const resource = construct.node.defaultChild ?? construct;
  if (!(resource instanceof CfnResource)) throw new Error(`${construct.node.path} is no resource`);
  const logicalId = stack.getLogicalId(resource);
  const found = template.toJSON().Resources?.[logicalId] as
    | { Properties?: Record<string, unknown> }
    | undefined;
  if (!found) throw new Error(`${logicalId} not in template`);
  return found.Properties ?? {};
}

export interface PolicyStatementJson {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, unknown>;
}

/** Every statement of every inline policy attached to the receiver function's role. */
export function functionRoleStatements(synth: Synthesized): PolicyStatementJson[] {
  const role = synth.stack.function.role;
  if (!role) throw new Error('function has no role');
  const policies = synth.template.findResources('AWS::IAM::Policy', {
    Properties: { Roles: Match.arrayWith([synth.stack.resolve(role.roleName)]) },
  });
  return Object.values(policies).flatMap(
    (policy) =>
      (policy as { Properties: { PolicyDocument: { Statement: PolicyStatementJson[] } } })
        .Properties.PolicyDocument.Statement,
  );
}

export const actionsOf = (statement: PolicyStatementJson): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

export const resourcesOf = (statement: PolicyStatementJson): unknown[] =>
  Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource];

/** A resource policy (SNS topic, SQS queue) holding the statement that denies requests without TLS. */
export const deniesPlainTransport = Match.objectLike({
  Statement: Match.arrayWith([
    Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
  ]),
});

/** A function imported by ARN, for constructs tested apart from the stack. */
export const importedHandler = (stack: Stack) =>
  LambdaFunction.fromFunctionArn(
    stack,
    'Handler',
    'arn:aws:lambda:eu-west-1:111122223333:function:receiver',
  );

/** A synthesized function's bundle: staged in the assembly as asset.<hash>, uploaded as <hash>.zip. */
export const bundleOf = ({ app }: Synthesized, fn: Record<string, unknown>): string =>
  join(
    app.outdir,
    `asset.${(fn.Code as { S3Key: string }).S3Key.replace(/\.zip$/, '')}`,
    'index.mjs',
  );

/**
 * Imports `bundle` in a fresh Node process, as Lambda would start it (so CommonJS dependencies
 * must find `require`), with only PATH, a region and `env`; it prints `typeof handler`.
 */
export function loadInFreshNode(bundle: string, env: Record<string, string>) {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); process.stdout.write(typeof m.handler);`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH, AWS_REGION: 'eu-west-1', ...env },
    encoding: 'utf8',
  });
}

/** An SNS topic imported by ARN, for constructs tested apart from the stack. */
export const importedTopic = (stack: Stack) =>
  Topic.fromTopicArn(stack, 'Topic', 'arn:aws:sns:eu-west-1:111122223333:alarms');
