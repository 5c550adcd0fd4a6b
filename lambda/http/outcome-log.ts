import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { CallbackError, ItemRejectedError } from '../callback/errors.js';
import type { TelemetryConfig } from '../config/config.js';
import { type JsonLogger, logLevels } from '../observability/json-logger.js';
import { refusalMetrics } from '../observability/metric-names.js';
import { coldStartMetric, emfMembers } from '../observability/telemetry.js';
import type { CallbackContext } from './callback-context.js';

/** The logger's level thresholds, to know whether a line at that level is printed. */
const levelThreshold = { info: logLevels.INFO, warn: logLevels.WARN, error: logLevels.ERROR };
type Level = keyof typeof levelThreshold;

/**
 * One log line per callback, whatever the outcome, carrying the outcome's count as an EMF
 * metric (and, for the handler's first invocation, the cold start's). It only observes: the
 * response is built elsewhere. Logs carry the request id, reference and outcome (and, for a
 * refusal not kept, the key's id, source IP and body digest): never the key, the body or names.
 */
export function outcomeLog(
  logger: JsonLogger,
  telemetry: TelemetryConfig,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext> {
  let coldStart = true;
  /** Writes the line, with the counts inside it when metrics are on. */
  function write(
    request: { context: { functionName?: string } },
    level: Level,
    message: string,
    fields: object,
    counted: readonly string[] = [],
  ) {
    const counts = [...counted];
    if (coldStart) counts.push(coldStartMetric);
    coldStart = false;
    const metrics =
      telemetry.metrics && counts.length > 0
        ? emfMembers(telemetry.metricsNamespace, counts)
        : undefined;
    if (logger.level <= levelThreshold[level]) {
      logger[level](message, { ...fields, ...metrics });
    } else if (metrics) {
      // A log level above this line's would drop the counts with it: they are written alone.
      const dimensions = {
        service: telemetry.serviceName,
        function_name: request.context.functionName,
      };
      process.stdout.write(`${JSON.stringify({ ...dimensions, ...metrics })}\n`);
    }
  }

  return {
    after: function logAcceptedCallback(request) {
      const receipt = request.context.receipt;
      if (!receipt) return;
      write(
        request,
        'info',
        'callback accepted',
        {
          requestId: request.event.requestContext?.requestId,
          reference: receipt.reference,
          outcome: receipt.outcome,
          hashResult: receipt.hashResult,
          status: request.response?.statusCode,
          // Names only: a redelivery that differs outside the interface is still a duplicate.
          ...(receipt.differingMembers ? { differingMembers: receipt.differingMembers } : {}),
        },
        [receipt.outcome],
      );
    },
    onError: function logRefusedCallback(request) {
      const error = request.error;
      const status = request.response?.statusCode;
      const requestId = request.event.requestContext?.requestId;
      if (!(error instanceof CallbackError)) {
        write(request, 'error', 'unexpected error', {
          requestId,
          status,
          cause: describeCause(error),
        });
        return;
      }
      // Past the minute's bound a refusal is answered but not kept: counted beside its outcome,
      // and this line is all that is left of it, so it names the sender (the key's id, never the
      // key) and the body's SHA-256, never the body.
      const notKept = request.context.refusalNotKept;
      const counted = [error.outcome, ...(notKept ? [refusalMetrics.notKept] : [])];
      const fields = {
        requestId,
        reference: error.reference,
        outcome: error.outcome,
        status,
        ...(notKept ? { kept: false, ...notKept } : {}),
      };
      if (status !== undefined && status >= 500) {
        const reason = error instanceof ItemRejectedError ? error.reason : undefined;
        const cause = describeCause(error.cause);
        write(request, 'error', 'callback not recorded', { ...fields, reason, cause }, counted);
      } else {
        const detail = error.fieldErrors ?? error.message;
        write(request, 'warn', 'callback refused', { ...fields, detail }, counted);
      }
    },
  };
}

/** Name and status of a failure, not its message: SDK messages may quote the request. */
function describeCause(cause: unknown): Record<string, unknown> {
  if (!(cause instanceof Error)) return { name: typeof cause };
  const metadata = (cause as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return { name: cause.name, httpStatusCode: metadata?.httpStatusCode };
}
