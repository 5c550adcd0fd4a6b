import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import type { ActivitySource } from '../../../../scripts/console/activity/activity-source.js';
import { cloudWatchActivity } from '../../../../scripts/console/activity/cloudwatch-activity.js';
import { createActivityRecorder } from '../../../../scripts/local/activity-recorder.js';
import { consoleRoutes } from '../support/console-routes.js';

/**
 * The Activity view's page and its charts' data, asked of the routes in-process: what it says
 * with no source, with nothing counted yet, with one callback, from CloudWatch, and when the
 * source fails. activity-view.test.ts draws the charts in Chromium.
 */

// The view reads no table: a client that is never used is enough.
const client = new DynamoDBClient({ region: 'us-east-1' });
afterAll(() => client.destroy());
const tables = { table: { client, tableName: 'unused' }, refusals: { tableName: 'unused' } };
const routes = (activity?: ActivitySource) => consoleRoutes(tables, activity ? { activity } : {});

/** A source whose every read fails with `error`. */
const failing = (error: unknown): ActivitySource => ({ series: () => Promise.reject(error) });

describe('the activity view, route by route', () => {
  it('says the console has no figures, and its data answers 404, without a source', async () => {
    const page = await routes().get('/activity');
    expect(page.status).toBe(200);
    expect(page.text).toContain('No activity figures in this console');
    expect(await routes().get('/activity/data')).toEqual({
      status: 404,
      text: JSON.stringify({ error: 'no activity source' }),
    });
  });

  it('shows zero callbacks, no minute and a dash for latency before the first callback', async () => {
    const page = await routes(createActivityRecorder()).get('/activity');
    expect(page.text).toContain('<span data-total>0 callbacks</span> in the last hour');
    expect(page.text).toContain('No callbacks in this range.');
    expect(page.text).toContain('<td class="num">–</td>');
  });

  it('counts one callback in the singular, over the last day when asked', async () => {
    const activity = createActivityRecorder();
    activity.record({ status: 204, outcome: 'recorded', ms: 12 });
    // Not the receiver's answers: a 2xx without its outcome header, a redirect.
    activity.record({ status: 200, outcome: undefined, ms: 3 });
    activity.record({ status: 302, outcome: undefined, ms: 3 });
    const page = await routes(activity).get('/activity?range=day');
    expect(page.text).toContain('<span data-total>1 callback</span> in the last day');
    expect(page.text).toContain('Per minute (1 minute with callbacks');
    expect(page.text).toMatch(/<a href="\/activity\?range=day" aria-current="page">Last day/);
  });

  it('names CloudWatch, the namespace and the API, and counts nothing from an empty answer', async () => {
    // CloudWatch may leave out the results, a result's id or its values: read as no figures.
    const pages = [
      {
        MetricDataResults: [{}, { Id: 'countRecorded', Timestamps: [new Date()] }],
        NextToken: 'page-2',
      },
      {},
    ];
    const activity = cloudWatchActivity({
      stackName: 'Receiver',
      getMetricData: async () => pages.shift() ?? {},
    });
    const page = await routes(activity).get('/activity');
    expect(page.text).toContain('From CloudWatch');
    expect(page.text).toContain('namespace\n<code>Receiver</code>');
    expect(page.text).toContain('<span data-total>0 callbacks</span>');
  });

  it('names the failure, never its message, on the page and in the data', async () => {
    const denied = Object.assign(
      new Error('User arn:aws:iam::123456789012:user/x is not authorized'),
      {
        name: 'AccessDeniedException',
      },
    );
    const page = await routes(failing(denied)).get('/activity');
    expect(page.text).toContain('could not be read\n(AccessDeniedException)');
    expect(page.text).not.toContain('123456789012');
    expect(await routes(failing(denied)).get('/activity/data')).toEqual({
      status: 502,
      text: JSON.stringify({ error: 'AccessDeniedException' }),
    });
    expect((await routes(failing('offline')).get('/activity/data')).text).toBe(
      JSON.stringify({ error: 'unknown error' }),
    );
  });
});
