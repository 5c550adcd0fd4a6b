import { App, Stack } from 'aws-cdk-lib';
import { Capture, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnStage } from 'aws-cdk-lib/aws-apigateway';
import type { CfnLogGroup } from 'aws-cdk-lib/aws-logs';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { describe, expect, test } from 'vitest';
import { CallbackApi } from '../../../infra/constructs/callback-api.js';
import { maxBodyBytes } from '../../../lambda/http/read-body.js';
import { importedHandler, propertiesOf, synthesize } from '../synth.js';

const synth = synthesize();
const { template, stack } = synth;
const stage = propertiesOf(synth, stack.api.api.deploymentStage);

describe('callback API', () => {
  test('is a regional REST API', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', {
      EndpointConfiguration: { Types: ['REGIONAL'] },
    });
  });

  test('has one method, POST /callback, proxied to the function', () => {
    template.resourceCountIs('AWS::ApiGateway::Method', 1);
    template.hasResourceProperties('AWS::ApiGateway::Resource', { PathPart: 'callback' });
    const uri = new Capture();
    template.hasResourceProperties('AWS::ApiGateway::Method', {
      HttpMethod: 'POST',
      AuthorizationType: 'NONE',
      Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST', Uri: uri },
    });
    expect(JSON.stringify(uri.asObject())).toContain(
      JSON.stringify(stack.resolve(stack.function.functionArn)),
    );
  });

  test('lets API Gateway invoke the function for that stage and method only', () => {
    template.resourceCountIs('AWS::Lambda::Permission', 1);
    const source = new Capture();
    template.hasResourceProperties('AWS::Lambda::Permission', {
      Principal: 'apigateway.amazonaws.com',
      SourceArn: source,
    });
    const arn = JSON.stringify(source.asObject());
    expect(arn).toContain('/POST/callback');
    expect(arn).not.toContain('*');
  });

  test('throttles the stage at the default rate and burst', () => {
    expect(stage.MethodSettings).toEqual([
      expect.objectContaining({ ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 }),
    ]);
  });

  test('writes JSON access logs to a log group with a retention', () => {
    const { DestinationArn, Format } = stage.AccessLogSetting as {
      DestinationArn: unknown;
      Format: string;
    };
    const fields = JSON.parse(Format) as Record<string, string>;
    expect(fields).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
      integrationError: '$context.integration.error',
      errorResponseType: '$context.error.responseType',
    });
    expect(JSON.stringify(DestinationArn)).toContain(
      JSON.stringify(stack.resolve(stack.api.accessLogGroup.logGroupName)),
    );
    expect(propertiesOf(synth, stack.api.accessLogGroup)).toMatchObject({ RetentionInDays: 90 });
  });

  test('never logs headers or bodies (the API key travels in a header)', () => {
    const { Format } = stage.AccessLogSetting as { Format: string };
    expect(Format).not.toMatch(/api-key|\$input|requestOverride/i);
    expect(stage.MethodSettings).toEqual([
      expect.objectContaining({ DataTraceEnabled: false, LoggingLevel: 'ERROR' }),
    ]);
  });

  test('traces requests with X-Ray', () => {
    expect(stage.TracingEnabled).toBe(true);
  });

  test('sets up the account-level role API Gateway needs to write logs', () => {
    template.resourceCountIs('AWS::ApiGateway::Account', 1);
  });

  test('answers a throttled or failed Lambda invocation with 503 and Retry-After', () => {
    for (const type of ['INTEGRATION_FAILURE', 'DEFAULT_5XX']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: type,
        StatusCode: '503',
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
      });
    }
  });

  test('adds Retry-After to the 429 of stage throttling', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'THROTTLED',
      StatusCode: '429',
      ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
    });
  });

  test('passes every body to the function as bytes (base64), whatever its Content-Type', () => {
    template.hasResourceProperties('AWS::ApiGateway::RestApi', { BinaryMediaTypes: ['*/*'] });
  });

  test('creates the execution log group with the retention, before the stage can write to it', () => {
    const executionLogs = propertiesOf(synth, stack.api.executionLogGroup);
    expect(JSON.stringify(executionLogs.LogGroupName)).toContain('API-Gateway-Execution-Logs_');
    expect(executionLogs.RetentionInDays).toBe(90);
    const stageId = stack.getLogicalId(stack.api.api.deploymentStage.node.defaultChild as CfnStage);
    const logGroupId = stack.getLogicalId(
      stack.api.executionLogGroup.node.defaultChild as CfnLogGroup,
    );
    expect(template.toJSON().Resources[stageId].DependsOn).toContain(logGroupId);
  });

  test('answers a body over API Gateway’s own limit with the function’s 413 problem', () => {
    template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'REQUEST_TOO_LARGE',
      StatusCode: '413',
      ResponseTemplates: {
        'application/json': Match.stringLikeRegexp(
          'urn:callback-receiver:problem:payload-too-large',
        ),
      },
    });
  });
});

describe('WAF web ACL (default, no allow-list)', () => {
  const acl = propertiesOf(synth, stack.api.webAcl as CfnWebACL) as {
    DefaultAction: unknown;
    Rules: { Name: string; Priority: number; Action: unknown; Statement: unknown }[];
    CustomResponseBodies: Record<string, { Content: string }>;
    AssociationConfig: unknown;
    Name: string;
  };
  const rule = (name: string) => acl.Rules.find((found) => found.Name === name);
  const body = (key: string) => JSON.parse(acl.CustomResponseBodies[key]?.Content ?? '{}');

  test('is attached to the stage, named after the stack, and lets every address through', () => {
    expect(acl.Name).toBe('CallbackReceiver-callbacks');
    expect(acl.DefaultAction).toEqual({ Allow: {} });
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 1);
    template.resourceCountIs('AWS::WAFv2::IPSet', 0);
  });

  test('refuses a body over the function’s 64 KiB limit with 413 before it reaches the function', () => {
    expect(rule('BodyTooLarge')).toMatchObject({
      Priority: 0,
      Action: {
        Block: { CustomResponse: { ResponseCode: 413, CustomResponseBodyKey: 'bodyTooLarge' } },
      },
      Statement: {
        SizeConstraintStatement: {
          FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
          ComparisonOperator: 'GT',
          Size: maxBodyBytes,
        },
      },
    });
    // WAF must read the whole limit, not its 16 KB default, for the size rule to be exact.
    expect(acl.AssociationConfig).toEqual({
      RequestBody: { API_GATEWAY: { DefaultSizeInspectionLimit: 'KB_64' } },
    });
    expect(body('bodyTooLarge')).toMatchObject({
      type: 'urn:callback-receiver:problem:payload-too-large',
      status: 413,
    });
  });

  test('answers an address over the rate limit 429 with Retry-After: retryable, not final', () => {
    expect(rule('RateLimitPerAddress')).toMatchObject({
      Priority: 1,
      Action: {
        Block: {
          CustomResponse: {
            ResponseCode: 429,
            ResponseHeaders: [{ Name: 'Retry-After', Value: '60' }],
          },
        },
      },
      // Default: half the stage rate (100/s) over WAF's 5-minute window, so one address cannot
      // take the whole stage.
      Statement: { RateBasedStatement: { AggregateKeyType: 'IP', Limit: (100 * 300) / 2 } },
    });
    expect(body('rateLimited')).toMatchObject({ status: 429, title: 'Too Many Requests' });
  });
});

describe('WAF allow-list of one address family', () => {
  test('allows the listed IPv4 addresses by their one IP set, with no OR around it', () => {
    const alone = new Stack(new App(), 'AllowList');
    new CallbackApi(alone, 'Api', {
      handler: importedHandler(alone),
      throttleRateLimit: 100,
      throttleBurstLimit: 200,
      allowedSourceIps: ['203.0.113.7/32'],
      logRetention: RetentionDays.ONE_WEEK,
    });
    const allowList = Template.fromStack(alone);

    allowList.resourceCountIs('AWS::WAFv2::IPSet', 1);
    allowList.hasResourceProperties('AWS::WAFv2::WebACL', {
      Rules: Match.arrayWith([
        Match.objectLike({
          Name: 'AllowPaymentGateway',
          Action: { Allow: {} },
          Statement: { IPSetReferenceStatement: { Arn: Match.anyValue() } },
        }),
      ]),
    });
  });
});

describe('callback API: custom domain', () => {
  const certificateArn =
    'arn:aws:acm:eu-west-1:111122223333:certificate/1234abcd-12ab-34cd-56ef-1234567890ab';
  const withDomain = synthesize({ domainName: 'callbacks.example.com', certificateArn });

  test('with a domain and its certificate: a regional TLS 1.2 domain, the stage at its root, and outputs', () => {
    withDomain.template.hasResourceProperties('AWS::ApiGateway::DomainName', {
      DomainName: 'callbacks.example.com',
      RegionalCertificateArn: certificateArn,
      EndpointConfiguration: { Types: ['REGIONAL'] },
      SecurityPolicy: 'TLS_1_2',
    });
    withDomain.template.hasResourceProperties('AWS::ApiGateway::BasePathMapping', {
      RestApiId: withDomain.stack.resolve(withDomain.stack.api.api.restApiId),
      Stage: withDomain.stack.resolve(withDomain.stack.api.api.deploymentStage.stageName),
    });
    const outputs = withDomain.template.findOutputs('*');
    expect(outputs.CustomDomainTarget?.Value).toEqual(
      withDomain.stack.resolve(withDomain.stack.api.domain?.domainNameAliasDomainName),
    );
    expect(outputs.CustomCallbackUrl?.Value).toBe('https://callbacks.example.com/callback');
  });

  test('without: no domain, no mapping, no domain output', () => {
    template.resourceCountIs('AWS::ApiGateway::DomainName', 0);
    template.resourceCountIs('AWS::ApiGateway::BasePathMapping', 0);
    expect(Object.keys(template.findOutputs('*'))).not.toContain('CustomDomainTarget');
  });

  test('refuses a domain without its certificate, and the other way round', () => {
    expect(() => synthesize({ domainName: 'callbacks.example.com' })).toThrow(
      /"domainName" needs its certificate; set certificateArn too/,
    );
    expect(() => synthesize({ certificateArn })).toThrow(
      /"certificateArn" is the certificate of a custom domain; set domainName too/,
    );
  });
});
