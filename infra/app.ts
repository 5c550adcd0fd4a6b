/**
 * CDK entry (`cdk.json` → `npx tsx infra/app.ts`). Reads the deployment's options from CDK
 * context (declared in `infra/deployment-options.ts`, documented in docs/deploy.md), builds the
 * one stack under its `stackName` and runs cdk-nag on every synth. Needs no AWS credentials:
 * without them the stack is environment-agnostic.
 */
import { App } from 'aws-cdk-lib';
import { CallbackReceiverStack } from './callback-receiver-stack.js';
import { readDeploymentContext } from './context.js';
import { DeploymentOptionError, type DeploymentSettings } from './deployment-settings.js';
import { addNagChecks } from './nag.js';

const app = new App();
const settings = deploymentSettings();
new CallbackReceiverStack(app, settings.stackName, {
  ...settings,
  description: 'Payment-gateway completion callbacks: API Gateway REST, Lambda, DynamoDB',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
addNagChecks(app);

/**
 * A bad `-c` option is the user's to fix: one line on stderr and exit 2, as the operator tools
 * refuse a bad option, instead of Node's stack trace around the message. Anything else is a bug
 * and keeps its stack.
 */
function deploymentSettings(): DeploymentSettings {
  try {
    return readDeploymentContext(app.node);
  } catch (error) {
    if (!(error instanceof DeploymentOptionError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
