import { Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { CfnIPSet, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { maxBodyBytes } from '../../lambda/http/read-body.js';
import { isIpv6Cidr } from '../option-values.js';

/**
 * Seconds an address above the WAF rate rule is told to wait: WAF counts over a 5-minute window
 * and lifts the block only once the rate has fallen, so retrying sooner only keeps it blocked.
 */
const wafRetryAfterSeconds = 60;

/**
 * WAF, in rule order: a body over the function's limit is refused with 413 before it costs an
 * invocation (API Gateway alone would pass up to 10 MB, and 6–10 MB ends as a Lambda payload
 * error answered 503, retried forever); an address above the rate limit gets 429 +
 * Retry-After, retryable, even when it is allowed (a leaked key used from an allowed network,
 * a runaway retry loop); then only the allow-list passes, when there is one. Refusals are
 * problem bodies; the allow-list's names the source address, so it cannot be mistaken for the
 * function's 403 for a hash that does not verify.
 *
 * Built in `scope` (the API construct), so the resources keep their place in the template.
 */
export function addCallbackWebAcl(
  scope: Construct,
  stage: Stage,
  allowedSourceIps: readonly string[],
  rateLimit: number,
): CfnWebACL {
  const stackName = Stack.of(scope).stackName;
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
    const addresses = allowedSourceIps.filter((cidr) => isIpv6Cidr(cidr) === (version === 'IPV6'));
    if (addresses.length === 0) return [];
    const id = version === 'IPV4' ? 'AllowedIpv4' : 'AllowedIpv6';
    return [new CfnIPSet(scope, id, { scope: 'REGIONAL', ipAddressVersion: version, addresses })];
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

  const webAcl = new CfnWebACL(scope, 'WebAcl', {
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
  new CfnWebACLAssociation(scope, 'WebAclAssociation', {
    resourceArn: stage.stageArn,
    webAclArn: webAcl.attrArn,
  });
  return webAcl;
}
