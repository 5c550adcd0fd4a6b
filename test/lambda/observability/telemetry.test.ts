import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { describe, expect, it } from 'vitest';
import { loadStreamConsumerConfig } from '../../../lambda/config/config.js';
import {
  defaultMetricsNamespace,
  serviceName,
} from '../../../lambda/observability/metric-names.js';
import { createMetrics } from '../../../lambda/observability/powertools-metrics.js';
import { emfMembers } from '../../../lambda/observability/telemetry.js';

function emitted(env: NodeJS.ProcessEnv) {
  const { telemetry } = loadStreamConsumerConfig({ ...env, EVENT_BUS_NAME: 'bus' });
  const metrics = createMetrics(telemetry);
  metrics.addMetric('Recorded', MetricUnit.Count, 1);
  const [directive] = metrics.serializeMetrics()._aws.CloudWatchMetrics;
  const { service } = metrics.serializeMetrics();
  return { namespace: directive?.Namespace, service };
}

describe('telemetry names', () => {
  it('emits into the namespace the stack sets, so two stacks never mix their metrics', () => {
    expect(
      emitted({
        POWERTOOLS_METRICS_NAMESPACE: 'CallbackReceiverStaging',
        POWERTOOLS_SERVICE_NAME: 'x',
      }),
    ).toEqual({ namespace: 'CallbackReceiverStaging', service: 'x' });
  });

  it('falls back to the product namespace and service when the environment sets none', () => {
    expect(emitted({})).toEqual({ namespace: defaultMetricsNamespace, service: serviceName });
  });
});

describe('EMF members inside a log line', () => {
  it('declare each count under its dimensions, and a cold start alone under service and function', () => {
    const members = emfMembers('Ns', ['ColdStart'], () => 42);
    expect(members).toEqual({
      _aws: {
        Timestamp: 42,
        CloudWatchMetrics: [
          {
            Namespace: 'Ns',
            Dimensions: [['service', 'function_name']],
            Metrics: [{ Name: 'ColdStart', Unit: 'Count' }],
          },
        ],
      },
      ColdStart: 1,
    });
    const outcome = emfMembers('Ns', ['Recorded'], () => 42);
    expect(outcome._aws).toMatchObject({
      CloudWatchMetrics: [{ Dimensions: [['service']], Metrics: [{ Name: 'Recorded' }] }],
    });
    expect(outcome.Recorded).toBe(1);
  });
});
