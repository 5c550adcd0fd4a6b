import { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JsonLogger, logContext } from '../../../lambda/observability/json-logger.js';
import { visibleLogText } from '../../../lambda/observability/log-text.js';

/**
 * The functions log through our JSON logger instead of Powertools Logger (a cold-start saving,
 * docs/performance.md). Powertools stays a dev dependency for the benchmark's baseline, so each
 * case here runs both on the same calls, in the same environment, at the same instant, and
 * compares what reaches stdout and stderr byte for byte.
 */
const invocation = (requestId: string) =>
  ({
    functionName: 'callback-receiver',
    functionVersion: '$LATEST',
    awsRequestId: requestId,
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:123456789012:function:callback-receiver',
    memoryLimitInMB: '512',
  }) as unknown as Context;

type Log = (message: string, fields: Record<string, unknown>) => void;

/**
 * Two invocations (`enter` runs the context middleware) of a handler that logs on every level,
 * with the fields a line can meet: escapes, empty members, a member named like the context's,
 * a reserved name, an error with a cause, a bigint.
 */
function script(
  logger: { debug: Log; info: Log; warn: Log; error: Log },
  enter: (requestId: string) => void,
) {
  logger.info('before any invocation', {});
  for (const index of ['first', 'second']) {
    enter(index);
    logger.debug('debug line', { index });
    logger.info('callback accepted', {
      requestId: `req-${index}`,
      reference: 'ref-\u009b2J\u202etxt.exe',
      differingMembers: ['note\u2066'],
      empty: '',
      none: null,
      missing: undefined,
      function_name: 'overridden',
      nested: { empty: '', none: null, list: [1, undefined, 'x'] },
    });
    logger.warn('callback refused', { detail: { amount: ['Expected a number'] }, status: 409 });
    logger.error('unexpected error', { level: 'reserved', cause: failure, big: 10n });
  }
}

/** One error for both loggers: its stack says where it was made. */
const failure = Object.assign(
  new Error('write failed', {
    cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
  }),
  { name: 'StoreUnavailableError', $metadata: { httpStatusCode: 503 } },
);

/** What `work` writes, each chunk tagged with where it went. */
function written(work: () => void): string[] {
  const chunks: string[] = [];
  const tagged = (stream: string) => (chunk: unknown) => {
    chunks.push(`${stream} ${String(chunk)}`);
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(tagged('stdout'));
  vi.spyOn(process.stderr, 'write').mockImplementation(tagged('stderr'));
  for (const method of ['debug', 'info', 'warn', 'error', 'log'] as const) {
    vi.spyOn(console, method).mockImplementation((text: unknown) => {
      chunks.push(`console.${method} ${String(text)}\n`);
    });
  }
  try {
    work();
  } finally {
    vi.restoreAllMocks();
  }
  return chunks;
}

function powertoolsLines(): string[] {
  return written(() => {
    const logger = new Logger({ serviceName: 'callback-receiver', jsonReplacerFn: visibleLogText });
    const middleware = injectLambdaContext(logger, { resetKeys: true });
    script(logger, (requestId) =>
      middleware.before?.({ context: invocation(requestId), event: {} } as never),
    );
  });
}

function ourLines(): string[] {
  return written(() => {
    const logger = new JsonLogger({
      serviceName: 'callback-receiver',
      jsonReplacerFn: visibleLogText,
    });
    const middleware = logContext(logger);
    script(logger, (requestId) => {
      middleware.before?.({ context: invocation(requestId), event: {} } as never);
    });
  });
}

const environments: Record<string, Record<string, string>> = {
  'the stack (INFO)': { POWERTOOLS_LOG_LEVEL: 'INFO' },
  'Lambda on demand, with an X-Ray trace': {
    POWERTOOLS_LOG_LEVEL: 'DEBUG',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    _X_AMZN_TRACE_ID: 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1',
  },
  'provisioned concurrency (never a cold start)': {
    AWS_LAMBDA_INITIALIZATION_TYPE: 'provisioned-concurrency',
  },
  'a bare trace id': { _X_AMZN_TRACE_ID: '1-5759e988-bd862e3fe1be46a994272793' },
  WARN: { POWERTOOLS_LOG_LEVEL: 'WARN' },
  SILENT: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
  'LOG_LEVEL when POWERTOOLS_LOG_LEVEL is empty': { POWERTOOLS_LOG_LEVEL: '', LOG_LEVEL: 'ERROR' },
  "Lambda's log level over POWERTOOLS_LOG_LEVEL": {
    POWERTOOLS_LOG_LEVEL: 'DEBUG',
    AWS_LAMBDA_LOG_LEVEL: 'WARN',
  },
  "Lambda's FATAL as CRITICAL": { POWERTOOLS_LOG_LEVEL: 'DEBUG', AWS_LAMBDA_LOG_LEVEL: 'FATAL' },
  'an unknown level (INFO)': { POWERTOOLS_LOG_LEVEL: 'LOUD' },
  'a time zone': { TZ: 'Asia/Kolkata' },
  'a time zone west of UTC': { TZ: 'America/New_York' },
  'UTC spelled as a zone': { TZ: ':UTC' },
  'POWERTOOLS_DEV (indented, through the console)': {
    POWERTOOLS_LOG_LEVEL: 'DEBUG',
    POWERTOOLS_DEV: 'true',
  },
  'every invocation sampled at DEBUG': {
    POWERTOOLS_LOG_LEVEL: 'WARN',
    POWERTOOLS_LOGGER_SAMPLE_RATE: '1',
  },
  "sampling under Lambda's log level": {
    AWS_LAMBDA_LOG_LEVEL: 'DEBUG',
    POWERTOOLS_LOGGER_SAMPLE_RATE: '1',
  },
};

describe('JSON logger', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-25T16:30:00.123Z') });
    // The suite's setup silences logs; each case sets its own variables.
    for (const name of ['POWERTOOLS_LOG_LEVEL', 'POWERTOOLS_DEV', 'LOG_LEVEL'])
      vi.stubEnv(name, undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  for (const [name, variables] of Object.entries(environments)) {
    it(`writes the lines Powertools Logger writes: ${name}`, () => {
      // Prepare
      for (const [variable, value] of Object.entries(variables)) vi.stubEnv(variable, value);

      // Act
      const expected = powertoolsLines();
      const actual = ourLines();

      // Assess
      expect(actual).toEqual(expected);
    });
  }

  it('writes something in the cases above (the comparison is not between two silences)', () => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'DEBUG');
    const lines = ourLines();
    expect(lines.filter((line) => line.startsWith('stdout {'))).toHaveLength(5);
    expect(lines.filter((line) => line.startsWith('stderr {'))).toHaveLength(6);
    const accepted = JSON.parse(lines[2]?.slice('stdout '.length) ?? '');
    expect(accepted).toMatchObject({
      level: 'INFO',
      message: 'callback accepted',
      timestamp: '2026-11-25T16:30:00.123Z',
      cold_start: false,
      function_request_id: 'first',
      function_name: 'overridden',
      reference: 'ref-\\u009b2J\\u202etxt.exe',
    });
  });

  it('reads a level in lower case, which Powertools ignores', () => {
    vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'error');
    expect(new JsonLogger({ serviceName: 's' }).level).toBe(20);
    vi.stubEnv('AWS_LAMBDA_LOG_LEVEL', 'fatal');
    expect(new JsonLogger({ serviceName: 's' }).level).toBe(24);
  });
});
