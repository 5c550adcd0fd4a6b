import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/**
 * Structured JSON logs and EMF metrics. Service name and namespace have defaults here so local
 * runs need no setup; the stack sets `POWERTOOLS_SERVICE_NAME` and `POWERTOOLS_METRICS_NAMESPACE`.
 */
export const serviceName = 'callback-receiver';
export const metricsNamespace = 'CallbackReceiver';

export function createLogger(): Logger {
  return new Logger({ serviceName });
}

export function createMetrics(): Metrics {
  return new Metrics({ serviceName, namespace: metricsNamespace });
}
