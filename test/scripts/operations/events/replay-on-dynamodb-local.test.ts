import { expect, it } from 'vitest';
import {
  type ReplayProblem,
  replayTransactions,
} from '../../../../scripts/operations/events/replay.js';
import { timeWindow } from '../../../../scripts/table/time-window.js';
import { describeOnStreams } from '../../../support/dynamodb-local-stream.js';
import {
  at,
  bus,
  eventBridge,
  referenceOf,
  streamHistory,
} from '../../../support/stream-history.js';

/**
 * replay on DynamoDB Local: what it publishes, by reference or by window, is compared with what
 * the stream consumer itself published for the same transactions (test/support/stream-history.ts).
 */
describeOnStreams('replay and redrive, on DynamoDB Local', () => {
  const history = streamHistory();

  it('replay by reference publishes the very entries the stream consumer published', async () => {
    const { table, consumed, references } = history;
    const bridge = eventBridge();
    const problems: ReplayProblem[] = [];
    const handled: number[] = [];
    const summary = await replayTransactions(
      {
        client: table.client,
        tableName: table.tableName,
        publisher: bridge.publisher,
        eventBusName: bus,
      },
      { references: [references[2] as string, 'never-recorded', references[0] as string] },
      (problem) => {
        problems.push(problem);
      },
      (count) => handled.push(count),
    );

    const expected = [references[2], references[0]].map((reference) =>
      consumed.find(
        (entry) => entry.DetailType === 'Transaction Completed' && referenceOf(entry) === reference,
      ),
    );
    expect(bridge.entries()).toEqual(expected);
    expect(summary).toEqual({ published: 2, failed: 0, unpublishable: 0, notFound: 1 });
    expect(problems).toEqual([
      { kind: 'notFound', reference: 'never-recorded', problem: 'no recorded transaction' },
    ]);
    // Progress counts every reference asked for, found or not.
    expect(handled).toEqual([3]);
  });

  it('replay by window publishes what was received in it, and says what failed', async () => {
    const { table, consumed, references } = history;
    const healthy = eventBridge();
    const window = timeWindow(at('10:00:00'), at('12:00:00'));
    const deps = { client: table.client, tableName: table.tableName, eventBusName: bus };

    let handled = 0;
    const summary = await replayTransactions(
      { ...deps, publisher: healthy.publisher },
      { window },
      undefined,
      (count) => {
        handled += count;
      },
    );
    expect(handled).toBe(2);
    expect(healthy.entries().map(referenceOf).sort()).toEqual(
      [references[1], references[2]].sort(),
    );
    for (const entry of healthy.entries()) expect(consumed).toContainEqual(entry);
    expect(summary.published).toBe(2);

    const failing = eventBridge(() => 'InternalFailure');
    const problems: ReplayProblem[] = [];
    const failed = await replayTransactions(
      { ...deps, publisher: failing.publisher },
      { window },
      (problem) => {
        problems.push(problem);
      },
    );
    expect(failed).toMatchObject({ published: 0, failed: 2 });
    expect(problems.map((p) => (p.kind === 'failed' ? p.reference : p.kind)).sort()).toEqual(
      [references[1], references[2]].sort(),
    );
  });
});
