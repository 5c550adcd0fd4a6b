import type { TelemetryConfig } from '../config/config.js';
import { JsonLogger } from './json-logger.js';
import { visibleLogText } from './log-text.js';

/**
 * Structured JSON logs in Powertools' format (json-logger.ts), with the receiver's EMF metrics
 * inside them. The stack sets the service and the namespace (its stack name) in the environment,
 * read by the configuration; local runs need no setup and get the defaults.
 */
export function createLogger(telemetry: TelemetryConfig): JsonLogger {
  return new JsonLogger({ serviceName: telemetry.serviceName, jsonReplacerFn: visibleLogText });
}

/** Powertools' own name for the count of cold starts, with the `function_name` dimension. */
export const coldStartMetric = 'ColdStart';

/**
 * The members that make CloudWatch count each of `counts` (1 each) from the JSON log line they
 * are spread into: Embedded Metric Format, with the `service` dimension every metric of the
 * product carries (the log line's own `service` member), and `function_name` too for
 * {@link coldStartMetric}, as Powertools Metrics emits them. One line per callback instead of a
 * log line and a metrics line, and no second writer to load at cold start.
 */
export function emfMembers(
  namespace: string,
  counts: readonly string[],
  now: () => number = Date.now,
): Record<string, unknown> {
  const directive = (names: readonly string[], dimensions: string[]) => ({
    Namespace: namespace,
    Dimensions: [dimensions],
    Metrics: names.map((name) => ({ Name: name, Unit: 'Count' })),
  });
  const outcomes = counts.filter((name) => name !== coldStartMetric);
  const directives = [
    ...(outcomes.length > 0 ? [directive(outcomes, ['service'])] : []),
    ...(counts.includes(coldStartMetric)
      ? [directive([coldStartMetric], ['service', 'function_name'])]
      : []),
  ];
  const members: Record<string, unknown> = {
    _aws: { Timestamp: now(), CloudWatchMetrics: directives },
  };
  for (const name of counts) members[name] = 1;
  return members;
}
