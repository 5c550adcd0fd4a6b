import { describe, expect, it } from 'vitest';
import { outcomes } from '../../../../lambda/observability/metric-names.js';
import {
  cloudWatchActivity,
  type MetricDataInput,
  type MetricDataOutput,
  outcomeMetricsOf,
} from '../../../../scripts/console/activity/cloudwatch-activity.js';

// 12:30:20 UTC: the hour runs from 11:31 to 12:30, both included.
const now = Date.UTC(2026, 10, 25, 12, 30, 20);
const at = (hh: number, mm: number) => new Date(Date.UTC(2026, 10, 25, hh, mm));

/** GetMetricData as CloudWatch answers it, from canned values per query id; two pages. */
function cannedCloudWatch(values: Record<string, [Date, number][]>) {
  const calls: MetricDataInput[] = [];
  const getMetricData = async (input: MetricDataInput): Promise<MetricDataOutput> => {
    calls.push(input);
    const ids = Object.keys(values);
    const half = input.NextToken === undefined ? ids.slice(0, 3) : ids.slice(3);
    return {
      MetricDataResults: half.map((id) => ({
        Id: id,
        Timestamps: (values[id] ?? []).map(([when]) => when),
        Values: (values[id] ?? []).map(([, value]) => value),
      })),
      ...(input.NextToken === undefined ? { NextToken: 'page-2' } : {}),
    };
  };
  return { calls, getMetricData };
}

describe('the CloudWatch activity source', () => {
  it('puts every receiver outcome in exactly one class', () => {
    expect(Object.values(outcomeMetricsOf).flat().sort()).toEqual([...outcomes].sort());
  });

  it('asks for the stack namespace counts and the API latency over the whole minutes of the range', async () => {
    const { calls, getMetricData } = cannedCloudWatch({});
    await cloudWatchActivity({ stackName: 'Receiver', getMetricData, now: () => now }).series(
      'hour',
    );

    const [input] = calls;
    expect(input?.StartTime).toEqual(at(11, 31));
    expect(input?.EndTime).toEqual(at(12, 31));
    const recorded = input?.MetricDataQueries.find((query) => query.Id === 'countRecorded');
    expect(recorded?.MetricStat).toEqual({
      Metric: {
        Namespace: 'Receiver',
        MetricName: 'Recorded',
        Dimensions: [{ Name: 'service', Value: 'callback-receiver' }],
      },
      Period: 60,
      Stat: 'Sum',
    });
    const latency = input?.MetricDataQueries.filter(
      ({ MetricStat }) => MetricStat.Metric.MetricName === 'Latency',
    );
    expect(latency?.map(({ MetricStat }) => [MetricStat.Stat, MetricStat.Period])).toEqual([
      ['p50', 60],
      ['p99', 60],
      ['p50', 3_600],
      ['p99', 3_600],
    ]);
    expect(latency?.[0]?.MetricStat.Metric).toEqual({
      Namespace: 'AWS/ApiGateway',
      MetricName: 'Latency',
      Dimensions: [
        { Name: 'ApiName', Value: 'Receiver-callbacks' },
        { Name: 'Stage', Value: 'prod' },
      ],
    });
  });

  it('adds the outcomes of a class per minute across pages, zero or null where CloudWatch has nothing', async () => {
    const { calls, getMetricData } = cannedCloudWatch({
      countRecorded: [
        [at(12, 29), 5],
        [at(12, 30), 2],
      ],
      countConflict: [[at(12, 30), 1]],
      countSettledConflict: [[at(12, 30), 2]],
      countStoreUnavailable: [[at(11, 31), 4]],
      latencyP50: [[at(12, 30), 41.5]],
      rangeP99: [[at(11, 31), 880]],
    });
    const series = await cloudWatchActivity({
      stackName: 'Receiver',
      getMetricData,
      now: () => now,
    }).series('hour');

    expect(calls.map((call) => call.NextToken)).toEqual([undefined, 'page-2']);
    expect(series.minutes).toHaveLength(60);
    expect(series.minutes[0]).toBe(at(11, 31).getTime() / 1_000);
    expect(series.counts.recorded.slice(-2)).toEqual([5, 2]);
    expect(series.counts.conflict.at(-1)).toBe(3);
    expect(series.counts.failed[0]).toBe(4);
    expect(series.counts.duplicate.every((n) => n === 0)).toBe(true);
    expect(series.latency.p50.at(-1)).toBe(41.5);
    expect(series.latency.p50.at(-2)).toBeNull();
    expect(series.totals).toMatchObject({ recorded: 7, conflict: 3, failed: 4, invalid: 0 });
    expect(series.overall).toEqual({ p50: null, p99: 880 });
    expect(series.source).toEqual({
      kind: 'cloudwatch',
      namespace: 'Receiver',
      apiName: 'Receiver-callbacks',
    });
  });
});
