import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { MemoryRefusalStore } from '../../support/memory-refusal-store.js';
import { MemoryTransactionStore } from '../../support/memory-transaction-store.js';
import { receiverWith } from '../../support/receiver.js';

interface Directive {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit: string }[];
}
type Line = Record<string, unknown> & { _aws?: { CloudWatchMetrics: Directive[] } };

/** Every JSON line written to stdout or stderr (warnings and errors) while `work` runs. */
async function linesOf(work: () => Promise<unknown>): Promise<Line[]> {
  let output = '';
  const capture = (chunk: unknown) => {
    output += String(chunk);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  try {
    await work();
  } finally {
    vi.restoreAllMocks();
  }
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
}

/** The metric names a line's EMF directives declare, each with its dimensions. */
function declared(line: Line): string[] {
  return (line._aws?.CloudWatchMetrics ?? []).flatMap((directive) =>
    directive.Metrics.map((metric) => `${metric.Name} by ${directive.Dimensions[0]?.join('+')}`),
  );
}

describe('metrics', () => {
  beforeEach(() => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
  });
  afterEach(() => vi.unstubAllEnvs());

  it('count each outcome once per callback, inside its log line, in the CallbackReceiver namespace', async () => {
    const invoke = receiverWith(new MemoryTransactionStore());
    const fields = transaction();

    const lines = await linesOf(async () => {
      await invoke(callbackEvent(signed(fields)));
      await invoke(callbackEvent(signed(fields)));
      await invoke(callbackEvent(signed({ ...fields, amount: 1 })));
      await invoke(callbackEvent(signed(fields), { headers: { 'x-api-key': 'wrong' } }));
      await invoke(callbackEvent(signed(fields, 'other-key')));
      await invoke(callbackEvent('{'));
    });

    // One line per callback: the log line is the metric.
    expect(lines.map((line) => [line.message, line.outcome])).toEqual([
      ['callback accepted', 'Recorded'],
      ['callback accepted', 'Duplicate'],
      ['callback refused', 'Conflict'],
      ['callback refused', 'Unauthorized'],
      ['callback refused', 'HashRejected'],
      ['callback refused', 'Invalid'],
    ]);
    expect(lines.map(declared)).toEqual([
      ['Recorded by service', 'ColdStart by service+function_name'],
      ['Duplicate by service'],
      ['Conflict by service'],
      ['Unauthorized by service'],
      ['HashRejected by service'],
      ['Invalid by service'],
    ]);
    for (const line of lines) {
      expect(line._aws?.CloudWatchMetrics[0]?.Namespace).toBe('CallbackReceiver');
      // The dimensions' values are members of the same line, as EMF requires.
      expect(line.service).toBe('callback-receiver');
      expect(line[line.outcome as string]).toBe(1);
    }
    expect(lines[0]?.function_name).toEqual(expect.any(String));
    expect(lines[0]?.ColdStart).toBe(1);
  });

  it('count a refusal past the bound on kept refusals as RefusalsNotKept, beside its outcome', async () => {
    const refusals = new MemoryRefusalStore(1);
    const invoke = receiverWith(new MemoryTransactionStore(), { refusals });
    const statuses: number[] = [];

    const lines = await linesOf(async () => {
      statuses.push((await invoke(callbackEvent('{"a":'))).statusCode);
      statuses.push((await invoke(callbackEvent('{"b":'))).statusCode);
    });

    expect(statuses).toEqual([400, 400]);
    expect(refusals.refusals.size).toBe(1);
    expect(lines.map((line) => (line as { kept?: unknown }).kept)).toEqual([undefined, false]);
    expect(
      lines.map(declared).map((names) => names.filter((n) => !n.startsWith('ColdStart'))),
    ).toEqual([['Invalid by service'], ['Invalid by service', 'RefusalsNotKept by service']]);
  });

  it('still counts when the log level hides the outcome line, in a line of its own', async () => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'ERROR');
    const invoke = receiverWith(new MemoryTransactionStore());

    const lines = await linesOf(() => invoke(callbackEvent(signed(transaction()))));

    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toBeUndefined();
    expect(declared(lines[0] as Line)).toEqual([
      'Recorded by service',
      'ColdStart by service+function_name',
    ]);
    expect(lines[0]).toMatchObject({
      service: 'callback-receiver',
      function_name: expect.any(String),
      Recorded: 1,
    });
  });

  it('write no EMF members when metrics are switched off', async () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'true');
    const invoke = receiverWith(new MemoryTransactionStore());

    const lines = await linesOf(() => invoke(callbackEvent(signed(transaction()))));

    expect(lines.map((line) => line.message)).toEqual(['callback accepted']);
    expect(lines[0]).not.toHaveProperty('_aws');
    expect(lines[0]).not.toHaveProperty('Recorded');
  });
});
