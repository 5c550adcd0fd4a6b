import { Duration } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import {
  defaultMetricsNamespace,
  type Outcome,
  serviceName,
} from '../../lambda/observability/metric-names.js';

/** Sum of one outcome per period, with the `service` dimension Powertools adds. */
export function outcomeMetric(outcome: Outcome, options: MetricOptions = {}): Metric {
  return new Metric({
    namespace: defaultMetricsNamespace,
    metricName: outcome,
    dimensionsMap: { service: serviceName },
    statistic: 'Sum',
    period: Duration.minutes(1),
    ...options,
  });
}
