import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { visibleLogText } from './log-text.js';
import { defaultMetricsNamespace, serviceName, telemetryEnvironment } from './metric-names.js';

/**
 * Structured JSON logs and EMF metrics. The stack sets the service and the namespace (its stack
 * name) in the environment; local runs need no setup and get the defaults. Powertools prefers a
 * constructor option over its environment variable, so the variable is read here first.
 */
export function createLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  return new Logger({
    serviceName: env[telemetryEnvironment.serviceName] || serviceName,
    jsonReplacerFn: visibleLogText,
  });
}

export function createMetrics(env: NodeJS.ProcessEnv = process.env): Metrics {
  return new Metrics({
    serviceName: env[telemetryEnvironment.serviceName] || serviceName,
    namespace: env[telemetryEnvironment.metricsNamespace] || defaultMetricsNamespace,
  });
}
