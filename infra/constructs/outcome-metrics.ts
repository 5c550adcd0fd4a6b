import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';

/**
 * The count metrics the handler emits with Powertools (EMF), one per outcome. Alarms and the
 * dashboard read them from here so a renamed outcome breaks the build, not a graph.
 */
export const metricsNamespace = 'CallbackReceiver';
export const serviceName = 'callback-receiver';

export const outcomes = [
  /** 204: first delivery, stored. */
  'Recorded',
  /** 204: same reference and same content again. */
  'Duplicate',
  /** 409: same reference, different content (audit record written). */
  'Conflict',
  /** 401: missing or unknown API key. */
  'Unauthorized',
  /** 403: the callback's hash does not verify. */
  'HashRejected',
  /** 400/413/415/422: malformed, too large, not JSON, or failing validation. */
  'Invalid',
  /** 503 with Retry-After: DynamoDB (or the secret) did not answer in time. */
  'StoreUnavailable',
] as const;

export type Outcome = (typeof outcomes)[number];

/** Sum of one outcome per period, with the `service` dimension Powertools adds. */
export function outcomeMetric(outcome: Outcome, options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: metricsNamespace,
    metricName: outcome,
    dimensionsMap: { service: serviceName },
    statistic: 'Sum',
    period: Duration.minutes(1),
    ...options,
  });
}
