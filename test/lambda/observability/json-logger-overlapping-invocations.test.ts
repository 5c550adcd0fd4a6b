import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonLogger, logContext } from '../../../lambda/observability/json-logger.js';

/**
 * Lambda Managed Instances (`AWS_LAMBDA_MAX_CONCURRENCY` above 1) run several invocations in one
 * process at once: each one's lines must carry its own request id, cold start and sampling
 * decision, whichever invocation started last. The handlers are middy's with the functions'
 * `logContext`, and their awaits are interleaved by hand.
 */
const contextOf = (requestId: string) =>
  ({
    functionName: 'callback-receiver',
    awsRequestId: requestId,
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:callback-receiver',
    memoryLimitInMB: '512',
  }) as unknown as Context;

/** A promise the test settles when it chooses: where an invocation waits for I/O. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

interface Line {
  readonly message: string;
  readonly invocation: string;
  readonly function_request_id?: string;
  readonly cold_start?: boolean;
  readonly level: string;
}

/** Every JSON line written to stdout and stderr while the test runs. */
function captureLines(): Line[] {
  const lines: Line[] = [];
  const capture = (chunk: unknown) => {
    for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  return lines;
}

/** A handler that logs, waits at two gates, and logs after each (its level too). */
function overlappingHandler(logger: JsonLogger) {
  const gates = new Map<
    string,
    { first: ReturnType<typeof gate>; second: ReturnType<typeof gate> }
  >();
  const levels = new Map<string, number[]>();
  const handler = middy<{ id: string }, string>()
    .use(logContext(logger))
    .handler(async ({ id }) => {
      const own = { first: gate(), second: gate() };
      gates.set(id, own);
      const seen = [logger.level];
      logger.info('started', { invocation: id });
      await own.first.opened;
      logger.debug('sampled detail', { invocation: id });
      logger.warn('between', { invocation: id });
      seen.push(logger.level);
      await own.second.opened;
      logger.error('finished', { invocation: id });
      seen.push(logger.level);
      levels.set(id, seen);
      return id;
    });
  const open = (id: string, which: 'first' | 'second') => gates.get(id)?.[which].open();
  return { handler, open, levels };
}

/** Lets every settled gate's continuation run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('JSON logger with overlapping invocations in one process', () => {
  beforeEach(() => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
    vi.stubEnv('AWS_LAMBDA_MAX_CONCURRENCY', '4');
    vi.stubEnv('AWS_LAMBDA_INITIALIZATION_TYPE', 'on-demand');
  });

  // Local mode's server invokes the receiver once per request, overlapping, without the variable.
  const servers = { 'on Lambda Managed Instances': '4', "in local mode's server": undefined };
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it.each(Object.entries(servers))(
    "stamps every line with its own invocation's request id and cold start %s",
    async (_, concurrency) => {
      // Prepare
      vi.stubEnv('AWS_LAMBDA_MAX_CONCURRENCY', concurrency);
      const lines = captureLines();
      const logger = new JsonLogger({ serviceName: 'callback-receiver' });
      const { handler, open } = overlappingHandler(logger);

      // Act: A starts, B starts, A resumes, C starts, B resumes twice, A and C finish.
      const a = handler({ id: 'A' }, contextOf('req-A'));
      const b = handler({ id: 'B' }, contextOf('req-B'));
      await settle();
      open('A', 'first');
      await settle();
      const c = handler({ id: 'C' }, contextOf('req-C'));
      await settle();
      open('B', 'first');
      open('B', 'second');
      await settle();
      open('A', 'second');
      open('C', 'first');
      open('C', 'second');
      await Promise.all([a, b, c]);
      vi.restoreAllMocks();

      // Assess
      expect(lines.map((line) => `${line.invocation} ${line.message}`)).toEqual([
        'A started',
        'B started',
        'A between',
        'C started',
        'B between',
        'B finished',
        'A finished',
        'C between',
        'C finished',
      ]);
      for (const line of lines) {
        expect(line.function_request_id).toBe(`req-${line.invocation}`);
        // The process's first invocation is its cold start, also on lines after others began.
        expect(line.cold_start).toBe(line.invocation === 'A');
      }
    },
  );

  it('samples each invocation on its own: one at DEBUG leaves the others at INFO', async () => {
    // Prepare: the constructor's draw (A's) misses, B's hits, C's misses.
    vi.stubEnv('POWERTOOLS_LOGGER_SAMPLE_RATE', '0.5');
    vi.spyOn(Math, 'random')
      .mockReturnValueOnce(0.9)
      .mockReturnValueOnce(0.1)
      .mockReturnValueOnce(0.9);
    const lines = captureLines();
    const logger = new JsonLogger({ serviceName: 'callback-receiver' });
    const { handler, open, levels } = overlappingHandler(logger);

    // Act: all three wait at their first gate while the others start.
    const runs = ['A', 'B', 'C'].map((id) => handler({ id }, contextOf(`req-${id}`)));
    await settle();
    for (const id of ['C', 'A', 'B']) open(id, 'first');
    await settle();
    for (const id of ['B', 'C', 'A']) open(id, 'second');
    await Promise.all(runs);
    vi.restoreAllMocks();

    // Assess
    const debugLines = lines.filter((line) => line.level === 'DEBUG');
    expect(debugLines.map((line) => line.message)).toEqual([
      // As Powertools under concurrency: written before B's context, so it carries none.
      'Setting log level to DEBUG due to sampling rate',
      'sampled detail',
    ]);
    expect(debugLines[0]?.function_request_id).toBeUndefined();
    expect(debugLines[1]).toMatchObject({ invocation: 'B', function_request_id: 'req-B' });
    expect(Object.fromEntries(levels)).toEqual({ A: [12, 12, 12], B: [8, 8, 8], C: [12, 12, 12] });
    for (const line of lines.filter((line) => line.invocation))
      expect(line.function_request_id).toBe(`req-${line.invocation}`);
  });
});
