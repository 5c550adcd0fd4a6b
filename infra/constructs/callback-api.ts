import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  type DomainName,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RestApi,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigateway';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import * as z from 'zod';
import { callbackApiName, stageName } from '../callback-api-names.js';
import { acknowledgeFinding } from '../nag.js';
import { accessLogFormat } from './access-log-format.js';
import { addCallbackWebAcl } from './callback-web-acl.js';
import { checkProps } from './checked-props.js';
import { addRetryableGatewayResponses } from './retryable-gateway-responses.js';

export const callbackPath = 'callback';

/**
 * The WAF's default per-address limit: half of what the stage passes in its 5-minute window, so
 * one address (a scanner, a leaked key, a runaway retry loop) can take at most half the stage's
 * rate and the rest stays for the gateway's other addresses and for its retries. Never under the
 * WAF's minimum of 10.
 */
export function defaultWafRateLimit(throttleRateLimit: number): number {
  return Math.max(10, Math.ceil((throttleRateLimit * 300) / 2));
}

/** A name of the deployer's own for the API, served with its certificate. */
export interface CustomDomain {
  /** e.g. `callbacks.example.com`. */
  readonly domainName: string;
  /** An ACM certificate for that name, in the stack's region (a regional endpoint). */
  readonly certificateArn: string;
}

export interface CallbackApiProps {
  readonly handler: IFunction;
  /** Stage steady-state limit, requests per second. */
  readonly throttleRateLimit: number;
  /** Stage burst limit, requests. */
  readonly throttleBurstLimit: number;
  /**
   * Attach a WAF web ACL: bodies over the function's limit refused with 413, a per-address
   * rate rule answering 429 + Retry-After, and the allow-list when `allowedSourceIps` is given.
   * @default true
   */
  readonly waf?: boolean;
  /**
   * Source CIDRs of the payment gateway (normalized, see deployment-options.ts). When given, the
   * web ACL allows only these and refuses everything else. Needs `waf`.
   * @default - every address
   */
  readonly allowedSourceIps?: readonly string[];
  /**
   * Requests per address per 5 minutes before the WAF rate-based rule answers 429. Needs `waf`.
   * @default - half the stage's rate over 5 minutes ({@link defaultWafRateLimit})
   */
  readonly wafRateLimit?: number;
  /**
   * Serve the stage at the root of this domain too (a regional custom domain name, TLS 1.2, and a
   * base path mapping); the DNS record that points the name at it is the deployer's to create.
   * @default - the execute-api URL only
   */
  readonly customDomain?: CustomDomain;
  readonly logRetention: RetentionDays;
  /**
   * Create the account-level role API Gateway needs to write logs (AWS::ApiGateway::Account).
   * Turn off when the account already has one, e.g. set by a landing zone.
   * @default true
   */
  readonly cloudWatchRole?: boolean;
}

const throttleRule = 'throttle limits must be positive, the burst an integer';
const callbackApiRules = z
  .object({
    throttleRateLimit: z.number().positive(throttleRule),
    throttleBurstLimit: z.number().int(throttleRule),
    waf: z.boolean().optional(),
    allowedSourceIps: z.array(z.string()).optional(),
    wafRateLimit: z.number().optional(),
  })
  .refine(
    ({ waf = true, allowedSourceIps, wafRateLimit }) =>
      waf || (allowedSourceIps === undefined && wafRateLimit === undefined),
    'allowedSourceIps and wafRateLimit need the WAF',
  );

/** Regional REST API with one route, `POST /callback`, proxied to the function. */
export class CallbackApi extends Construct {
  readonly api: RestApi;
  readonly accessLogGroup: LogGroup;
  readonly executionLogGroup: LogGroup;
  readonly callbackUrl: string;
  readonly webAcl?: CfnWebACL;
  /** Present only with `customDomain`. */
  readonly domain?: DomainName;
  /** `https://<custom domain>/callback`, present only with `customDomain`. */
  readonly customCallbackUrl?: string;

  constructor(scope: Construct, id: string, props: CallbackApiProps) {
    super(scope, id);
    const cloudWatchRole = props.cloudWatchRole ?? true;
    const waf = props.waf ?? true;
    checkProps(this.node.path, callbackApiRules, props);

    // JSON access logs: one line per request, including why the gateway (not the function)
    // answered, e.g. `errorResponseType: INTEGRATION_FAILURE` for a throttled Lambda. Headers
    // are never logged: `x-api-key` carries the secret.
    this.accessLogGroup = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.api = new RestApi(this, 'Api', {
      restApiName: callbackApiName(Stack.of(this).stackName),
      description: 'Payment-gateway completion callbacks',
      endpointConfiguration: { types: [EndpointType.REGIONAL] },
      // Access and execution logs both need the account-level CloudWatch role. RETAIN: other
      // APIs of the account may log with it. (A removal policy without the role fails synth.)
      cloudWatchRole,
      ...(cloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      // Every body passes as bytes (base64 to the function), whatever its Content-Type: without
      // this API Gateway hands text over and replaces invalid UTF-8, so the function could not
      // refuse a body that is not UTF-8 and the hash would be computed over altered bytes. The
      // function answers text (isBase64Encoded false), which passes through unchanged.
      binaryMediaTypes: ['*/*'],
      deployOptions: {
        stageName,
        throttlingRateLimit: props.throttleRateLimit,
        throttlingBurstLimit: props.throttleBurstLimit,
        accessLogDestination: new LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat,
        tracingEnabled: true,
        // Execution logs for errors only, and never bodies (dataTrace): bodies are payments.
        loggingLevel: MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        metricsEnabled: false,
      },
    });

    // The execution log group, created by the stack before the stage writes to it, so it has
    // the stack's retention instead of never expiring (API Gateway's own would).
    this.executionLogGroup = new LogGroup(this, 'ExecutionLogs', {
      logGroupName: `API-Gateway-Execution-Logs_${this.api.restApiId}/${stageName}`,
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.api.deploymentStage.node.addDependency(this.executionLogGroup);

    const callback = this.api.root.addResource(callbackPath);
    const method = callback.addMethod(
      'POST',
      // Proxy integration; no test-invoke permission (it would allow any stage, `*`).
      new LambdaIntegration(props.handler, { proxy: true, allowTestInvoke: false }),
    );
    this.callbackUrl = this.api.urlForPath(`/${callbackPath}`);

    addRetryableGatewayResponses(this.api);
    if (props.customDomain) {
      // At the root (no base path), so the callback URL is https://<domain>/callback. The WAF is
      // on the stage, so it judges requests through either name alike.
      this.domain = this.api.addDomainName('Domain', {
        domainName: props.customDomain.domainName,
        certificate: Certificate.fromCertificateArn(
          this,
          'Certificate',
          props.customDomain.certificateArn,
        ),
        endpointType: EndpointType.REGIONAL,
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      this.customCallbackUrl = `https://${props.customDomain.domainName}/${callbackPath}`;
    }
    if (waf) {
      this.webAcl = addCallbackWebAcl(
        this,
        this.api.deploymentStage,
        props.allowedSourceIps ?? [],
        props.wafRateLimit ?? defaultWafRateLimit(props.throttleRateLimit),
      );
    } else {
      acknowledgeFinding(
        this.api.deploymentStage,
        'AwsSolutions-APIG3',
        'Deployed with waf=false: the operator chose to go without a web ACL (see ' +
          'docs/deploy.md for what is lost: edge 413, per-address rate limit, allow-list).',
      );
    }

    // The gateway authenticates with an API key (and optionally a body hash) that the function
    // checks against Secrets Manager; it cannot use IAM, Cognito or an authorizer.
    acknowledgeFinding(
      method,
      'AwsSolutions-APIG4',
      'Machine-to-machine callbacks from a payment gateway that sends an x-api-key header: the ' +
        'function verifies it against Secrets Manager (constant time) and answers 401/403.',
    );
    acknowledgeFinding(
      method,
      'AwsSolutions-COG4',
      'No end users: the caller is a payment gateway that cannot obtain Cognito tokens; it is ' +
        'authenticated by its API key in the function.',
    );
    acknowledgeFinding(
      this.api,
      'AwsSolutions-APIG2',
      'The function validates the body itself and answers with specific problem responses ' +
        '(400/413/415/422) the gateway integrators rely on; a gateway validator would answer ' +
        'first with a different, generic shape.',
    );
    const cloudWatchRoleConstruct = this.api.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRoleConstruct) {
      acknowledgeFinding(
        cloudWatchRoleConstruct,
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        'The account-level role API Gateway assumes to write access and execution logs; ' +
          'AmazonAPIGatewayPushToCloudWatchLogs is the policy AWS documents for exactly that.',
      );
    }
  }
}
