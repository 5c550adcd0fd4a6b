import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  AccessLogFormat,
  EndpointType,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnIPSet, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import * as z from 'zod';
import { maxBodyBytes } from '../../lambda/http/read-body.js';
import { isIpv6Cidr } from '../deployment-options.js';
import { acknowledgeFinding } from '../nag.js';
import { checkProps } from './checked-props.js';

export const callbackPath = 'callback';
export const stageName = 'prod';
/** Seconds the gateway is told to wait before retrying a 429/503 the gateway itself produced. */
export const retryAfterSeconds = 1;
/**
 * Seconds an address above the WAF rate rule is told to wait: WAF counts over a 5-minute window
 * and lifts the block only once the rate has fallen, so retrying sooner only keeps it blocked.
 */
const wafRetryAfterSeconds = 60;

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
   * @default - the stage rate limit × 300 s, so WAF only trips above what the stage would allow
   */
  readonly wafRateLimit?: number;
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
      restApiName: `${Stack.of(this).stackName}-callbacks`,
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
        accessLogFormat: AccessLogFormat.custom(JSON.stringify(accessLogFields)),
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

    this.addRetryableGatewayResponses();
    if (waf) {
      this.webAcl = this.addWebAcl(
        props.allowedSourceIps ?? [],
        props.wafRateLimit ?? Math.max(100, Math.ceil(props.throttleRateLimit * 300)),
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

  /**
   * A throttled Lambda never runs, so it cannot return its own 503. AWS documents that when the
   * Lambda service rejects the invocation (429 TooManyRequestsException) API Gateway answers
   * 500 `{"message":"Internal server error"}` itself and does not retry. That rejection is
   * reported to use the INTEGRATION_FAILURE gateway response (default 504, else DEFAULT_5XX), so
   * both are customized: 503 with Retry-After, as the function answers when DynamoDB is
   * unavailable, instead of a bare 500 a gateway may treat as final. DEFAULT_5XX also covers the
   * other 5xx the gateway generates itself (integration timeout, a crashed function): none of
   * them certainly recorded the callback, and a retry is deduplicated by reference, so "retry
   * later" is always right. Stage throttling (THROTTLED, 429) gets the same Retry-After. The
   * access log's `errorResponseType` shows which one answered.
   */
  private addRetryableGatewayResponses(): void {
    const respond = (
      id: string,
      type: ResponseType,
      status: number,
      title: string,
      detail: string,
    ) =>
      this.api.addGatewayResponse(id, {
        type,
        statusCode: String(status),
        responseHeaders: {
          'Retry-After': `'${retryAfterSeconds}'`,
          'Content-Type': "'application/problem+json'",
        },
        templates: {
          'application/json': JSON.stringify({
            type: 'about:blank',
            title,
            status,
            detail,
            requestId: '$context.requestId',
          }),
        },
      });
    const unavailable =
      'The receiver could not take the callback now. Retry after the Retry-After delay.';
    respond(
      'LambdaUnavailable',
      ResponseType.INTEGRATION_FAILURE,
      503,
      'Service Unavailable',
      unavailable,
    );
    respond('Default5xx', ResponseType.DEFAULT_5XX, 503, 'Service Unavailable', unavailable);
    // Over API Gateway's 10 MB (or with waf=false): the same problem body the function gives.
    this.api.addGatewayResponse('RequestTooLarge', {
      type: ResponseType.REQUEST_TOO_LARGE,
      statusCode: '413',
      responseHeaders: { 'Content-Type': "'application/problem+json'" },
      templates: {
        'application/json': JSON.stringify({
          type: 'urn:callback-receiver:problem:payload-too-large',
          title: 'Body too large',
          status: 413,
          detail: `The body is larger than ${maxBodyBytes} bytes; it was not recorded.`,
          requestId: '$context.requestId',
        }),
      },
    });
    respond(
      'StageThrottled',
      ResponseType.THROTTLED,
      429,
      'Too Many Requests',
      'Rate limit exceeded. Retry after the Retry-After delay.',
    );
  }

  /**
   * WAF, in rule order: a body over the function's limit is refused with 413 before it costs an
   * invocation (API Gateway alone would pass up to 10 MB, and 6–10 MB ends as a Lambda payload
   * error answered 503, retried forever); an address above the rate limit gets 429 +
   * Retry-After, retryable, even when it is allowed (a leaked key used from an allowed network,
   * a runaway retry loop); then only the allow-list passes, when there is one. Refusals are
   * problem bodies; the allow-list's names the source address, so it cannot be mistaken for the
   * function's 403 for a hash that does not verify.
   */
  private addWebAcl(allowedSourceIps: readonly string[], rateLimit: number): CfnWebACL {
    const stackName = Stack.of(this).stackName;
    const problem = (type: string, title: string, status: number, detail: string) => ({
      contentType: 'APPLICATION_JSON',
      content: JSON.stringify({
        type: `urn:callback-receiver:problem:${type}`,
        title,
        status,
        detail,
      }),
    });
    const refuse = (status: number, bodyKey: string, retryAfter?: number) => ({
      block: {
        customResponse: {
          responseCode: status,
          customResponseBodyKey: bodyKey,
          responseHeaders: retryAfter
            ? [{ name: 'Retry-After', value: String(retryAfter) }]
            : undefined,
        },
      },
    });
    const visibility = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });

    const rules: CfnWebACL.RuleProperty[] = [
      {
        name: 'BodyTooLarge',
        priority: 0,
        action: refuse(413, 'bodyTooLarge'),
        statement: {
          sizeConstraintStatement: {
            // A body longer than WAF inspects is "oversize": MATCH refuses it too.
            fieldToMatch: { body: { oversizeHandling: 'MATCH' } },
            comparisonOperator: 'GT',
            size: maxBodyBytes,
            textTransformations: [{ priority: 0, type: 'NONE' }],
          },
        },
        visibilityConfig: visibility('BodyTooLarge'),
      },
      {
        name: 'RateLimitPerAddress',
        priority: 1,
        action: refuse(429, 'rateLimited', wafRetryAfterSeconds),
        statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: rateLimit } },
        visibilityConfig: visibility('RateLimitPerAddress'),
      },
    ];

    const ipSets = (['IPV4', 'IPV6'] as const).flatMap((version) => {
      const addresses = allowedSourceIps.filter(
        (cidr) => isIpv6Cidr(cidr) === (version === 'IPV6'),
      );
      if (addresses.length === 0) return [];
      const id = version === 'IPV4' ? 'AllowedIpv4' : 'AllowedIpv6';
      return [new CfnIPSet(this, id, { scope: 'REGIONAL', ipAddressVersion: version, addresses })];
    });
    if (ipSets.length > 0) {
      const references = ipSets.map((set) => ({ ipSetReferenceStatement: { arn: set.attrArn } }));
      const [only] = references;
      rules.push({
        name: 'AllowPaymentGateway',
        priority: 2,
        action: { allow: {} },
        statement:
          references.length === 1 && only ? only : { orStatement: { statements: references } },
        visibilityConfig: visibility('AllowPaymentGateway'),
      });
    }

    const webAcl = new CfnWebACL(this, 'WebAcl', {
      name: `${stackName}-callbacks`,
      scope: 'REGIONAL',
      description: 'Callback receiver: body size, per-address rate, payment gateway addresses',
      defaultAction: ipSets.length > 0 ? refuse(403, 'sourceNotAllowed') : { allow: {} },
      // WAF reads 16 KB of an API Gateway body unless told more; the size rule needs the whole
      // limit (inspection above 16 KB is billed per extra 16 KB, see docs/deploy.md).
      associationConfig: { requestBody: { API_GATEWAY: { defaultSizeInspectionLimit: 'KB_64' } } },
      customResponseBodies: {
        bodyTooLarge: problem(
          'payload-too-large',
          'Body too large',
          413,
          `The body is larger than ${maxBodyBytes} bytes; it was not recorded.`,
        ),
        rateLimited: problem(
          'rate-limited',
          'Too Many Requests',
          429,
          'Too many requests from this address. Retry after the Retry-After delay.',
        ),
        sourceNotAllowed: problem(
          'source-address-not-allowed',
          'Source address not allowed',
          403,
          'Requests are accepted only from the payment gateway’s registered addresses. This ' +
            'is not a verdict on the callback: it was not read.',
        ),
      },
      visibilityConfig: visibility(`${stackName}-callbacks`),
      rules,
    });
    new CfnWebACLAssociation(this, 'WebAclAssociation', {
      resourceArn: this.api.deploymentStage.stageArn,
      webAclArn: webAcl.attrArn,
    });
    return webAcl;
  }
}

/** Access log line: request, outcome and timing; no headers (x-api-key), no body. */
const accessLogFields = {
  requestId: '$context.requestId',
  extendedRequestId: '$context.extendedRequestId',
  requestTime: '$context.requestTime',
  sourceIp: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  httpMethod: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationStatus: '$context.integration.status',
  integrationLatency: '$context.integration.latency',
  integrationError: '$context.integration.error',
  errorResponseType: '$context.error.responseType',
  errorMessage: '$context.error.message',
  wafResponseCode: '$context.wafResponseCode',
  xrayTraceId: '$context.xrayTraceId',
};
