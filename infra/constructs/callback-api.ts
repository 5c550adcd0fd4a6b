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
import { isIpv6Cidr } from '../context.js';
import { acknowledgeFinding } from '../nag.js';

export const callbackPath = 'callback';
export const stageName = 'prod';
/** Seconds the gateway is told to wait before retrying a 429/503 the gateway itself produced. */
export const retryAfterSeconds = 1;

export interface CallbackApiProps {
  readonly handler: IFunction;
  /** Stage steady-state limit, requests per second. */
  readonly throttleRateLimit: number;
  /** Stage burst limit, requests. */
  readonly throttleBurstLimit: number;
  /**
   * Source CIDRs of the payment gateway. When given, a WAF web ACL allows only these and blocks
   * everything else; a rate-based rule caps each address.
   * @default - no WAF web ACL
   */
  readonly allowedSourceIps?: readonly string[];
  /**
   * Requests per address per 5 minutes before the WAF rate-based rule blocks it.
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

/** Regional REST API with one route, `POST /callback`, proxied to the function. */
export class CallbackApi extends Construct {
  readonly api: RestApi;
  readonly accessLogGroup: LogGroup;
  readonly callbackUrl: string;
  readonly webAcl?: CfnWebACL;

  constructor(scope: Construct, id: string, props: CallbackApiProps) {
    super(scope, id);
    const cloudWatchRole = props.cloudWatchRole ?? true;

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
      // Access and execution logs both need the account-level CloudWatch role.
      cloudWatchRole,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
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

    const callback = this.api.root.addResource(callbackPath);
    const method = callback.addMethod(
      'POST',
      // Proxy integration; no test-invoke permission (it would allow any stage, `*`).
      new LambdaIntegration(props.handler, { proxy: true, allowTestInvoke: false }),
    );
    this.callbackUrl = this.api.urlForPath(`/${callbackPath}`);

    this.addRetryableGatewayResponses();
    if (props.allowedSourceIps && props.allowedSourceIps.length > 0) {
      this.webAcl = this.addWebAcl(
        props.allowedSourceIps,
        props.wafRateLimit ?? Math.max(100, Math.ceil(props.throttleRateLimit * 300)),
      );
    } else {
      acknowledgeFinding(
        this.api.deploymentStage,
        'AwsSolutions-APIG3',
        'No allowedSourceIps in context, so no WAF web ACL: an ACL without an allow-list would ' +
          'only add cost. Deploy with -c allowedSourceIps=<gateway CIDRs> to attach one.',
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
    respond(
      'StageThrottled',
      ResponseType.THROTTLED,
      429,
      'Too Many Requests',
      'Rate limit exceeded. Retry after the Retry-After delay.',
    );
  }

  /**
   * WAF: allow only the gateway's addresses, and block an address above the rate limit even
   * when it is allowed (a leaked key used from an allowed network, a runaway retry loop).
   */
  private addWebAcl(allowedSourceIps: readonly string[], rateLimit: number): CfnWebACL {
    const ipv4 = allowedSourceIps.filter((cidr) => !isIpv6Cidr(cidr));
    const ipv6 = allowedSourceIps.filter(isIpv6Cidr);
    const ipSets = [
      ...(ipv4.length > 0
        ? [
            new CfnIPSet(this, 'AllowedIpv4', {
              scope: 'REGIONAL',
              ipAddressVersion: 'IPV4',
              addresses: ipv4,
            }),
          ]
        : []),
      ...(ipv6.length > 0
        ? [
            new CfnIPSet(this, 'AllowedIpv6', {
              scope: 'REGIONAL',
              ipAddressVersion: 'IPV6',
              addresses: ipv6,
            }),
          ]
        : []),
    ];
    const references = ipSets.map((set) => ({ ipSetReferenceStatement: { arn: set.attrArn } }));
    const [only] = references;
    const allowStatement =
      references.length === 1 && only ? only : { orStatement: { statements: references } };

    const visibility = (metricName: string) => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'REGIONAL',
      description: 'Callback receiver: payment gateway addresses only, rate limited',
      defaultAction: { block: {} },
      visibilityConfig: visibility('CallbackReceiverWebAcl'),
      rules: [
        {
          name: 'RateLimitPerAddress',
          priority: 0,
          action: { block: {} },
          statement: { rateBasedStatement: { aggregateKeyType: 'IP', limit: rateLimit } },
          visibilityConfig: visibility('RateLimitPerAddress'),
        },
        {
          name: 'AllowPaymentGateway',
          priority: 1,
          action: { allow: {} },
          statement: allowStatement,
          visibilityConfig: visibility('AllowPaymentGateway'),
        },
      ],
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
