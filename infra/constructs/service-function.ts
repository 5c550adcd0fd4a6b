import { fileURLToPath } from 'node:url';
import { type Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  Effect,
  PolicyStatement,
  type PolicyStatementProps,
  Role,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import * as z from 'zod';
import { serviceName, telemetryEnvironment } from '../../lambda/observability/metric-names.js';
import { acknowledgeFinding } from '../nag.js';
import { checkProps } from './checked-props.js';

export interface ServiceFunctionProps {
  /** The handler module (exporting `handler`). */
  readonly entry: string;
  readonly description: string;
  /** What the role may do, in a sentence: it is the role's description in IAM. */
  readonly roleDescription: string;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly logRetention: RetentionDays;
  /** The function's own variables; service, namespace and log level are added here. */
  readonly environment: Readonly<Record<string, string>>;
  /**
   * Concurrent executions reserved for, and capped at, this function.
   * @default - the account's unreserved pool
   */
  readonly reservedConcurrentExecutions?: number;
}

const memorySizeRule = 'memorySize must be an integer from 128 to 10240 MB';
const concurrencyRule = 'reservedConcurrentExecutions must be a positive integer';
/** What Lambda would otherwise refuse only at deploy time. */
const serviceFunctionRules = z.object({
  memorySize: z.number().int(memorySizeRule).min(128, memorySizeRule).max(10240, memorySizeRule),
  reservedConcurrentExecutions: z
    .number()
    .int(concurrencyRule)
    .positive(concurrencyRule)
    .optional(),
});

/**
 * One function of this product, with what every function shares fixed once: Lambda's Node.js 24
 * on arm64, active tracing, the bundle as tested (minified ESM, the pinned SDK inside, local
 * esbuild), its own log group with the stack's retention, and its own role that may write only
 * there. Metrics go to the stack's namespace (its name), so two stacks never mix them.
 *
 * The log group and the role are created beside the function, as `LogGroup` and `Role` in the
 * same scope (so one per scope), where the two functions had them before this construct
 * existed: their logical IDs, and the stream consumer's event source mapping, stay as deployed.
 * A replaced mapping would start again from the oldest stream record and publish it twice.
 */
export class ServiceFunction extends NodejsFunction {
  /** The role created for this function (`role` of the base class is optional). */
  readonly executionRole: Role;
  /** The log group created for this function, with the stack's retention. */
  readonly functionLogGroup: LogGroup;
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    checkProps(`${scope.node.path}/${id}`, serviceFunctionRules, props);

    // Our own log group: retention is ours to set, and the role can be scoped to it.
    const logGroup = new LogGroup(scope, 'LogGroup', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // An explicit role instead of AWSLambdaBasicExecutionRole, whose log permissions cover
    // every log group in the account.
    const role = new Role(scope, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.roleDescription,
    });
    logGroup.grantWrite(role);

    super(scope, id, {
      projectRoot: fileURLToPath(new URL('../../', import.meta.url)),
      entry: props.entry,
      handler: 'handler',
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      tracing: Tracing.ACTIVE,
      memorySize: props.memorySize,
      timeout: props.timeout,
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      role,
      logGroup,
      description: props.description,
      environment: {
        ...props.environment,
        [telemetryEnvironment.serviceName]: serviceName,
        [telemetryEnvironment.metricsNamespace]: Stack.of(scope).stackName,
        POWERTOOLS_LOG_LEVEL: 'INFO',
      },
      bundling: {
        // ESM with the packages' `module` builds first: the AWS SDK v3 only tree-shakes there.
        format: OutputFormat.ESM,
        mainFields: ['module', 'main'],
        // Bundle the pinned SDK instead of the runtime's copy, so what was tested is what runs.
        externalModules: [],
        minify: true,
        target: 'node24',
        // Source maps off: `--enable-source-maps` slows cold starts and every thrown error, and
        // the handlers log structured errors with their own context.
        sourceMap: false,
        // CommonJS dependencies inside an ESM bundle still call `require`; give them one.
        banner:
          "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        // Local esbuild only: synth and tests must work without Docker.
        forceDockerBundling: false,
        // esbuild's size summary tells a deploy nothing; its warnings and errors still show.
        logLevel: LogLevel.WARNING,
      },
    });

    this.executionRole = role;
    this.functionLogGroup = logGroup;

    // Active tracing makes CDK add xray:PutTraceSegments and xray:PutTelemetryRecords on "*";
    // those actions have no resource-level permissions. Every other statement names its resource.
    acknowledgeFinding(
      role.node.tryFindChild('DefaultPolicy') ?? role,
      'AwsSolutions-IAM5[Resource::*]',
      'Only actions without resource-level permissions use "*": the X-Ray actions of active ' +
        'tracing, and dynamodb:ListStreams for a stream consumer. Every other statement names ' +
        'its single resource.',
    );
  }

  /** Lets the function do `actions` on `resources`, in a statement named `sid` for reviewers. */
  allow(
    sid: string,
    actions: string[],
    resources: string[],
    conditions?: PolicyStatementProps['conditions'],
  ): void {
    this.addToRolePolicy(
      new PolicyStatement({ sid, effect: Effect.ALLOW, actions, resources, conditions }),
    );
  }
}
