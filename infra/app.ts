/**
 * CDK entry (`cdk.json` → `npx tsx infra/app.ts`). Reads the deployment's context parameters
 * (documented in `infra/context.ts`), builds the one stack and runs cdk-nag on every synth.
 * Needs no AWS credentials: without them the stack is environment-agnostic.
 */
import { App, Tags } from 'aws-cdk-lib';
import { CallbackReceiverStack } from './callback-receiver-stack.js';
import { readDeploymentContext } from './context.js';
import { addNagChecks } from './nag.js';

export const stackId = 'CallbackReceiver';

const app = new App();
new CallbackReceiverStack(app, stackId, {
  ...readDeploymentContext(app.node),
  description: 'Payment-gateway completion callbacks: API Gateway REST, Lambda, DynamoDB',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Tags.of(app).add('service', 'callback-receiver');
addNagChecks(app);
