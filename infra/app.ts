/**
 * CDK entry (`cdk.json` → `npx tsx infra/app.ts`). Reads the deployment's options from CDK
 * context (declared in `infra/deployment-options.ts`, documented in docs/deploy.md), builds the
 * one stack under its `stackName` and runs cdk-nag on every synth. Needs no AWS credentials:
 * without them the stack is environment-agnostic.
 */
import { App } from 'aws-cdk-lib';
import { CallbackReceiverStack } from './callback-receiver-stack.js';
import { readDeploymentContext } from './context.js';
import { addNagChecks } from './nag.js';

const app = new App();
const settings = readDeploymentContext(app.node);
new CallbackReceiverStack(app, settings.stackName, {
  ...settings,
  description: 'Payment-gateway completion callbacks: API Gateway REST, Lambda, DynamoDB',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
addNagChecks(app);
