import { type Stage, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * cdk-nag v3 runs as a CDK policy-validation plugin: at synthesis every finding that is not
 * acknowledged (`Validations.of(construct).acknowledge({ id, reason })`, next to the construct
 * it concerns) fails the synth with a report, in `cdk synth`, `cdk deploy` and the tests alike.
 * Acknowledgements are also written into the template metadata (`cdk_nag`) as an audit trail.
 */
export function addNagChecks(app: Stage): void {
  const options = { verbose: true, writeSuppressionsToCloudFormation: true };
  Validations.of(app).addPlugins(
    new AwsSolutionsChecks(app, options),
    new ServerlessChecks(app, options),
  );
}

/**
 * Acknowledges one cdk-nag finding on the CloudFormation resource a construct wraps (its
 * default child), so the reason lands on exactly the resource the finding names and not on
 * every resource below the construct.
 */
export function acknowledgeFinding(construct: IConstruct, id: string, reason: string): void {
  Validations.of(construct.node.defaultChild ?? construct).acknowledge({ id, reason });
}
