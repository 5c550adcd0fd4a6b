import { callbackApiName, stageName } from '../../../infra/callback-api-names.js';
import { type Outcome, outcomes, serviceName } from '../../../lambda/observability/metric-names.js';
import {
  type ActivityRange,
  type ActivitySeries,
  type ActivitySource,
  type OutcomeClass,
  outcomeClasses,
} from './activity-source.js';
import { minuteMs, rangeMinutes, totalsOf } from './activity-window.js';

/**
 * The part of CloudWatch's GetMetricData this reads, in the SDK's own shapes: with
 * `@aws-sdk/client-cloudwatch` it is `(input) => client.send(new GetMetricDataCommand(input))`,
 * the client built with `requestTimeout` and `throwOnRequestTimeout: true`.
 */
export type GetMetricData = (input: MetricDataInput) => Promise<MetricDataOutput>;

export interface MetricDataInput {
  readonly StartTime: Date;
  readonly EndTime: Date;
  readonly ScanBy: 'TimestampAscending';
  readonly MetricDataQueries: MetricQuery[];
  readonly NextToken?: string;
}

interface MetricQuery {
  readonly Id: string;
  readonly MetricStat: {
    readonly Metric: {
      readonly Namespace: string;
      readonly MetricName: string;
      readonly Dimensions: { readonly Name: string; readonly Value: string }[];
    };
    readonly Period: number;
    readonly Stat: string;
  };
}

export interface MetricDataOutput {
  readonly MetricDataResults?: readonly {
    readonly Id?: string;
    readonly Timestamps?: readonly Date[];
    readonly Values?: readonly number[];
  }[];
  readonly NextToken?: string;
}

/**
 * Which of the receiver's outcome metrics (lambda/observability/metric-names.ts) make up each
 * class the view charts. Every outcome is in exactly one class (the test checks it).
 */
export const outcomeMetricsOf: Readonly<Record<OutcomeClass, readonly Outcome[]>> = {
  recorded: ['Recorded'],
  duplicate: ['Duplicate'],
  conflict: ['Conflict', 'SettledConflict'],
  unauthorized: ['Unauthorized'],
  hashRejected: ['HashRejected'],
  invalid: ['Invalid'],
  failed: ['StoreUnavailable', 'ItemRejected', 'KeysUnavailable'],
};

/**
 * A deployed stack's activity from CloudWatch: counts from the receiver's own outcome metrics
 * (Sum per minute, in the stack's namespace with the `service` dimension, as the dashboard and
 * the alarms read them), latency from API Gateway's `Latency` of the stack's REST API (p50 and
 * p99 per minute, and over the whole range in one period). One GetMetricData call a range.
 */
export function cloudWatchActivity(options: {
  readonly stackName: string;
  readonly getMetricData: GetMetricData;
  readonly now?: () => number;
}): ActivitySource {
  const { stackName, getMetricData } = options;
  const now = options.now ?? Date.now;
  const apiName = callbackApiName(stackName);

  return {
    async series(range: ActivityRange): Promise<ActivitySeries> {
      const { first, length } = rangeMinutes(range, now());
      const queries = metricQueries(stackName, apiName, length * 60);
      const values = await fetchAll(getMetricData, {
        StartTime: new Date(first * minuteMs),
        EndTime: new Date((first + length) * minuteMs),
        ScanBy: 'TimestampAscending',
        MetricDataQueries: queries,
      });
      const perMinute = (id: string) => {
        const byMinute = values.get(id) ?? new Map<number, number>();
        return Array.from({ length }, (_, i) => byMinute.get(first + i) ?? null);
      };
      const counts = Object.fromEntries(
        outcomeClasses.map(({ key }) => {
          const parts = outcomeMetricsOf[key].map((outcome) => perMinute(countId(outcome)));
          return [
            key,
            parts.reduce<number[]>(
              (sum, part) => sum.map((n, i) => n + (part[i] ?? 0)),
              new Array<number>(length).fill(0),
            ),
          ];
        }),
      ) as Record<OutcomeClass, number[]>;
      const whole = (id: string) => [...(values.get(id)?.values() ?? [])][0] ?? null;
      return {
        range,
        minutes: Array.from({ length }, (_, i) => ((first + i) * minuteMs) / 1_000),
        counts,
        latency: { p50: perMinute('latencyP50'), p99: perMinute('latencyP99') },
        totals: totalsOf(counts),
        overall: { p50: whole('rangeP50'), p99: whole('rangeP99') },
        source: { kind: 'cloudwatch', namespace: stackName, apiName },
      };
    },
  };
}

const countId = (outcome: Outcome) => `count${outcome}`;

/** The queries of one range: a count per outcome, latency per minute and over the range. */
export function metricQueries(
  stackName: string,
  apiName: string,
  rangeSeconds: number,
): MetricQuery[] {
  const latency = (Id: string, Stat: string, Period: number): MetricQuery => ({
    Id,
    MetricStat: {
      Metric: {
        Namespace: 'AWS/ApiGateway',
        MetricName: 'Latency',
        Dimensions: [
          { Name: 'ApiName', Value: apiName },
          { Name: 'Stage', Value: stageName },
        ],
      },
      Period,
      Stat,
    },
  });
  return [
    ...outcomes.map(
      (outcome): MetricQuery => ({
        Id: countId(outcome),
        MetricStat: {
          Metric: {
            Namespace: stackName,
            MetricName: outcome,
            Dimensions: [{ Name: 'service', Value: serviceName }],
          },
          Period: 60,
          Stat: 'Sum',
        },
      }),
    ),
    latency('latencyP50', 'p50', 60),
    latency('latencyP99', 'p99', 60),
    latency('rangeP50', 'p50', rangeSeconds),
    latency('rangeP99', 'p99', rangeSeconds),
  ];
}

/** Every page of the answer, as query id → minute → value. */
async function fetchAll(
  getMetricData: GetMetricData,
  input: MetricDataInput,
): Promise<Map<string, Map<number, number>>> {
  const values = new Map<string, Map<number, number>>();
  let token: string | undefined;
  do {
    const page = await getMetricData(token ? { ...input, NextToken: token } : input);
    for (const result of page.MetricDataResults ?? []) {
      const byMinute = values.get(result.Id ?? '') ?? new Map<number, number>();
      values.set(result.Id ?? '', byMinute);
      result.Timestamps?.forEach((at, i) => {
        const value = result.Values?.[i];
        if (value !== undefined) byMinute.set(Math.floor(at.getTime() / minuteMs), value);
      });
    }
    token = page.NextToken;
  } while (token);
  return values;
}
