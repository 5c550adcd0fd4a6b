import type { PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import { describe, expect, it } from 'vitest';
import { entrySize, maxRequestBytes, requests } from '../../lambda/events/event-publisher.js';

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
