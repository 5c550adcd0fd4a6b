import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';

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

/**
 * The stage's JSON access log format: one line per request, including why the gateway (not the
 * function) answered, e.g. `errorResponseType: INTEGRATION_FAILURE` for a throttled Lambda.
 */
export const accessLogFormat = AccessLogFormat.custom(JSON.stringify(accessLogFields));
