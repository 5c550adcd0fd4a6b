import { Duration, Stack } from 'aws-cdk-lib';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import {
  type eventMetrics,
  type Outcome,
  type refusalMetrics,
  serviceName,
} from '../../lambda/observability/metric-names.js';

type EventMetric = (typeof eventMetrics)[keyof typeof eventMetrics];
type RefusalMetric = (typeof refusalMetrics)[keyof typeof refusalMetrics];

/**
 * Sum of one metric the functions emit with Powertools (EMF): in the stack's namespace (its
 * name, set in the functions' environment) with the `service` dimension Powertools adds.
 */
export function serviceMetric(
  scope: Construct,
  name: Outcome | EventMetric | RefusalMetric,
  options: MetricOptions = {},
): Metric {
  return new Metric({
    namespace: Stack.of(scope).stackName,
    metricName: name,
    dimensionsMap: { service: serviceName },
    statistic: 'Sum',
    period: Duration.minutes(1),
    ...options,
  });
}
