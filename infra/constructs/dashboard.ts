import { Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Dashboard,
  GraphWidget,
  type IMetric,
  type MetricOptions,
} from 'aws-cdk-lib/aws-cloudwatch';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { eventMetrics, outcomes } from '../../lambda/observability/metric-names.js';
import { serviceMetric } from './service-metric.js';

export interface CallbackDashboardProps {
  readonly stage: Stage;
  readonly function: IFunction;
  readonly table: ITable;
  /** The stream consumer and its dead-letter queue, for the events row. */
  readonly events: { readonly function: IFunction; readonly deadLetterQueue: IQueue };
}

const period = Duration.minutes(1);

/** One screen for the receiver: what came in, how fast, and what failed. */
export class CallbackDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: CallbackDashboardProps) {
    super(scope, id);
    const { stage, table } = props;
    const fn = props.function;
    // p50 and p99 of one latency metric, labelled.
    const percentiles = (name: string, metric: (options: MetricOptions) => IMetric) =>
      ['p50', 'p99'].map((statistic) =>
        metric({ statistic, period, label: `${name} ${statistic}` }),
      );
    const sum = (label: string) => ({ statistic: 'Sum', period, label });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      // Named after the stack, so two stacks in one account each get their own.
      dashboardName: Stack.of(this).stackName,
      defaultInterval: Duration.hours(3),
    });

    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Callbacks per outcome',
        width: 24,
        stacked: true,
        left: outcomes.map((outcome) => serviceMetric(this, outcome, { period })),
      }),
    );

    // Latency from AWS metrics: what the gateway saw end to end, and inside the function.
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Latency p50 / p99 (ms)',
        width: 12,
        left: [
          ...percentiles('API', (options) => stage.metricLatency(options)),
          ...percentiles('Integration', (options) => stage.metricIntegrationLatency(options)),
        ],
      }),
      new GraphWidget({
        title: 'Function duration p50 / p99 (ms)',
        width: 12,
        left: percentiles('Function', (options) => fn.metricDuration(options)),
      }),
    );

    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Errors: API Gateway',
        width: 8,
        left: [stage.metricClientError(sum('4xx')), stage.metricServerError(sum('5xx'))],
      }),
      new GraphWidget({
        title: 'Errors: function',
        width: 8,
        left: [
          fn.metricErrors(sum('Errors')),
          fn.metricThrottles(sum('Throttles')),
          serviceMetric(this, 'StoreUnavailable', { period }),
          serviceMetric(this, 'KeysUnavailable', { period }),
          serviceMetric(this, 'ItemRejected', { period }),
        ],
      }),
      new GraphWidget({
        title: 'Errors: DynamoDB throttles (PutItem + GetItem)',
        width: 8,
        left: [
          table.metricThrottledRequestsForOperations({
            operations: [Operation.PUT_ITEM, Operation.GET_ITEM],
            statistic: 'Sum',
            period,
          }),
        ],
      }),
    );

    // The hand-off to the systems that act on a transaction: what was published, what was not,
    // how far behind the table the consumer is, and what waits in the dead-letter queue.
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'Events: published / not published',
        width: 8,
        left: Object.values(eventMetrics).map((name) => serviceMetric(this, name, { period })),
      }),
      new GraphWidget({
        title: 'Events: stream lag (ms)',
        width: 8,
        left: [
          props.events.function.metric('IteratorAge', {
            statistic: 'Maximum',
            period,
            label: 'Iterator age',
          }),
        ],
      }),
      new GraphWidget({
        title: 'Events: dead-letter queue',
        width: 8,
        left: [
          props.events.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            statistic: 'Maximum',
            period,
            label: 'Batches waiting for redrive',
          }),
        ],
      }),
    );
  }
}
