import { Capture, Match } from 'aws-cdk-lib/assertions';
import { describe, expect, test } from 'vitest';
import { propertiesOf, synthesize } from './synth.js';

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

  test('attaches no WAF web ACL when no allow-list is given', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    template.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
  });
});
