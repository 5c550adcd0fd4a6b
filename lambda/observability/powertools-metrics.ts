import { Metrics } from '@aws-lambda-powertools/metrics';
import type { TelemetryConfig } from '../config/config.js';

/**
 * The stream consumer's Powertools Metrics: it sums counts over a batch and flushes them once per
 * invocation. The receiver writes its one count per callback inside the log line instead
 * (`emfMembers` in telemetry.ts), so it never loads this module. Powertools reads
 * `POWERTOOLS_METRICS_DISABLED` itself.
 */
export function createMetrics(telemetry: TelemetryConfig): Metrics {
  return new Metrics({
    serviceName: telemetry.serviceName,
    namespace: telemetry.metricsNamespace,
  });
}
