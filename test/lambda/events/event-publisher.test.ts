import type { PutEventsCommandOutput, PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { describe, expect, it } from 'vitest';
import { timeBudget } from '../../../lambda/budget/time-budget.js';
import {
  EventBridgePublisher,
  entrySize,
  maxRequestBytes,
  type PutEventsClient,
  requests,
} from '../../../lambda/events/event-publisher.js';

const entry = (detailBytes: number): PutEventsRequestEntry => ({
  Source: 'callback-receiver',
  DetailType: 'Transaction Completed',
  Detail: `"${'x'.repeat(detailBytes - 2)}"`,
});

describe('entrySize', () => {
  it('counts UTF-8 bytes of source, detail type and detail, and 14 for a time stamp', () => {
    const size = entrySize({ Source: 'ç', DetailType: 'T', Detail: '{"a":"ğ"}', Time: new Date() });

    expect(size).toBe(2 + 1 + 10 + 14);
  });
});

describe('requests', () => {
  it('splits by count: at most ten entries per request', () => {
    expect(requests(Array.from({ length: 21 }, () => entry(100))).map((run) => run.length)).toEqual(
      [10, 10, 1],
    );
  });

  it('splits by size before a request would reach 256 KB', () => {
    const large = entry(100 * 1024);

    const runs = requests([large, large, large, entry(100)]);

    expect(runs).toEqual([
      [0, 1],
      [2, 3],
    ]);
    for (const run of runs) {
      const bytes = run.reduce(
        (sum, index) => sum + entrySize([large, large, large, entry(100)][index] ?? {}),
        0,
      );
      expect(bytes).toBeLessThanOrEqual(maxRequestBytes);
    }
  });

  it('sends an entry too large for any request on its own, for EventBridge to refuse', () => {
    expect(requests([entry(100), entry(300 * 1024), entry(100)])).toEqual([[0], [1], [2]]);
  });
});

describe('entrySize of an entry with nothing in it', () => {
  it('is zero, and counts each resource by its bytes', () => {
    expect(entrySize({})).toBe(0);
    expect(entrySize({ Resources: ['arn:ä'] })).toBe(6);
  });
});

describe('requests for no entries', () => {
  it('is none at all', () => {
    expect(requests([])).toEqual([]);
  });
});

describe('EventBridgePublisher answers it cannot read', () => {
  /** A PutEvents client that gives `answer` to every call and counts the calls. */
  const clientAnswering = (answer: () => Promise<PutEventsCommandOutput>) => {
    const calls: number[] = [];
    const client: PutEventsClient = {
      send: async () => {
        calls.push(calls.length + 1);
        return answer();
      },
    };
    return { client, calls };
  };
  const one = [entry(100)];

  it('fails an entry EventBridge gave no result for, without sending it again', async () => {
    const { client, calls } = clientAnswering(async () => ({ Entries: [], $metadata: {} }));

    const outcomes = await new EventBridgePublisher(client, { backoffMs: () => 0 }).publish(one);

    expect(outcomes).toEqual([{ status: 'failed', errorCode: 'MissingResultEntry' }]);
    expect(calls).toHaveLength(1);
  });

  it('fails the entries of a call that threw something other than an Error, without retrying', async () => {
    const { client, calls } = clientAnswering(() => Promise.reject('connection lost'));

    const outcomes = await new EventBridgePublisher(client, { backoffMs: () => 0 }).publish(one);

    expect(outcomes).toEqual([{ status: 'failed', errorCode: 'UnknownError' }]);
    expect(calls).toHaveLength(1);
  });

  it('keeps a throttled entry failed rather than wait past the time budget to retry it', async () => {
    const { client, calls } = clientAnswering(async () => ({
      Entries: [{ ErrorCode: 'ThrottlingException' }],
      $metadata: {},
    }));
    const publisher = new EventBridgePublisher(client, {
      attemptTimeoutMs: 100,
      backoffMs: () => 60_000,
    });

    const outcomes = await publisher.publish(one, timeBudget(5_000, 0));

    expect(outcomes).toEqual([{ status: 'failed', errorCode: 'ThrottlingException' }]);
    expect(calls).toHaveLength(1);
  });
});
