import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryTransactionStore } from '../../../scripts/shared/memory-transaction-store.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { receiverWith } from '../../support/receiver.js';

/** The EMF documents Powertools prints: one per invocation, naming the metrics counted. */
function emfMetricNames(output: string): string[][] {
  return output
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .map((line) => {
      const document = JSON.parse(line) as {
        _aws: { CloudWatchMetrics: { Namespace: string; Metrics: { Name: string }[] }[] };
      };
      const [directive] = document._aws.CloudWatchMetrics;
      expect(directive?.Namespace).toBe('CallbackReceiver');
      return (directive?.Metrics ?? []).map((metric) => metric.Name);
    });
}

describe('metrics', () => {
  let output = '';
  const previous = process.env.POWERTOOLS_METRICS_DISABLED;

  beforeAll(() => {
    delete process.env.POWERTOOLS_METRICS_DISABLED;
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
      output += String(chunk);
      return true;
    });
  });

  afterAll(() => {
    vi.restoreAllMocks();
    if (previous !== undefined) process.env.POWERTOOLS_METRICS_DISABLED = previous;
  });

  it('count each outcome once per callback, in the CallbackReceiver namespace', async () => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const fields = transaction();
    await invoke(callbackEvent(signed(fields)));
    await invoke(callbackEvent(signed(fields)));
    await invoke(callbackEvent(signed({ ...fields, amount: 1 })));
    await invoke(callbackEvent(signed(fields), { headers: { 'x-api-key': 'wrong' } }));
    await invoke(callbackEvent(signed(fields, 'other-key')));
    await invoke(callbackEvent('{'));

    const counted = emfMetricNames(output).map((names) =>
      names.filter((name) => name !== 'ColdStart'),
    );
    expect(counted).toEqual([
      ['Recorded'],
      ['Duplicate'],
      ['Conflict'],
      ['Unauthorized'],
      ['HashRejected'],
      ['Invalid'],
    ]);
  });
});
