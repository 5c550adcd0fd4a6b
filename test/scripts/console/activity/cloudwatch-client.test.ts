import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudWatchActivity } from '../../../../scripts/console/activity/cloudwatch-client.js';

/**
 * A stand-in for CloudWatch's endpoint (AWS JSON 1.0, as the SDK speaks it): it keeps each
 * request and answers GetMetricData with one Recorded count and one p50, for the current minute.
 */
const requests: { target: string; body: Record<string, unknown> }[] = [];
const server = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  requests.push({
    target: String(request.headers['x-amz-target']),
    body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
  });
  const minute = Math.floor(Date.now() / 60_000) * 60;
  response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
  response.end(
    JSON.stringify({
      MetricDataResults: [
        { Id: 'countRecorded', Timestamps: [minute], Values: [7], StatusCode: 'Complete' },
        { Id: 'latencyP50', Timestamps: [minute], Values: [42.5], StatusCode: 'Complete' },
      ],
    }),
  );
});

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the CloudWatch client behind the Activity view', () => {
  it('sends GetMetricData for the stack and reads its answer into the series', async () => {
    const { port } = server.address() as AddressInfo;
    const cloudWatch = createCloudWatchActivity('Receiver', {
      endpoint: `http://127.0.0.1:${port}`,
      region: 'eu-west-1',
      credentials: { accessKeyId: 'stand-in', secretAccessKey: 'stand-in' },
    });
    try {
      const series = await cloudWatch.source.series('hour');

      expect(series.counts.recorded.at(-1)).toBe(7);
      expect(series.totals.recorded).toBe(7);
      expect(series.latency.p50.at(-1)).toBe(42.5);
    } finally {
      cloudWatch.destroy();
    }
    const [sent] = requests;
    expect(sent?.target).toBe('GraniteServiceVersion20100801.GetMetricData');
    const queries = sent?.body.MetricDataQueries as {
      Id: string;
      MetricStat: { Metric: { Namespace: string } };
    }[];
    expect(queries.find((query) => query.Id === 'countRecorded')?.MetricStat.Metric.Namespace).toBe(
      'Receiver',
    );
  });
});
