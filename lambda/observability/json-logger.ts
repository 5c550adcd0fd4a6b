import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';

/**
 * The functions' JSON log lines, written here instead of by Powertools Logger: loading and first
 * use of that library cost about 4.5 ms of CPU per cold start, the receiver's last step to 1.15×
 * its floor (docs/performance.md). The lines keep Powertools' members, order and rules:
 * its level numbers and variables, the Lambda context and `cold_start`, the X-Ray root, errors as
 * `{ name, location, message, stack, cause }`, and the caller's replacer seeing every value first.
 */
export const logLevels = {
  TRACE: 6,
  DEBUG: 8,
  INFO: 12,
  WARN: 16,
  ERROR: 20,
  CRITICAL: 24,
  SILENT: 28,
} as const;
type Replacer = (key: string, value: unknown) => unknown;
const methods = { DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
/** A line's own members: Powertools drops them from the fields, with a warning. */
const reserved = new Set(['level', 'message', 'sampling_rate', 'service', 'timestamp']);

/** What one invocation's lines carry, decided when it starts. */
interface Invocation {
  readonly context: Context;
  readonly coldStart: boolean;
  /** Its threshold: sampling may have lowered it to DEBUG for this invocation alone. */
  readonly level: number;
}

export class JsonLogger {
  readonly #service: string;
  readonly #replacer: Replacer | undefined;
  readonly #initialLevel: number;
  /** Lambda's advanced logging controls set the level: then sampling may not lower it. */
  readonly #lambdaLevel: boolean;
  readonly #samplingRate: number;
  readonly #dev: boolean;
  /**
   * The invocation whose async work is running. One process may serve several invocations at
   * once (Lambda Managed Instances, `AWS_LAMBDA_MAX_CONCURRENCY` above 1; local mode's server), so
   * a member of the logger would stamp the last one to start on every line; each invocation's
   * awaits keep their own here.
   */
  readonly #invocation = new AsyncLocalStorage<Invocation>();
  /** The threshold outside any invocation, and the first invocation's (sampled at construction). */
  readonly #level: number;
  #coldStart = process.env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';
  /** The last invocation to start: where Powertools, in sequence, puts a sampling line. */
  #previous: Invocation | undefined;

  constructor(options: { readonly serviceName: string; readonly jsonReplacerFn?: Replacer }) {
    const env = process.env;
    this.#service = options.serviceName;
    this.#replacer = options.jsonReplacerFn;
    // Powertools' precedence: AWS_LAMBDA_LOG_LEVEL (FATAL meaning CRITICAL), POWERTOOLS_LOG_LEVEL,
    // LOG_LEVEL, else INFO. Unlike Powertools, a lower-case name is read too.
    const lambda = levelOf(env.AWS_LAMBDA_LOG_LEVEL?.trim().replace(/^fatal$/i, 'CRITICAL'));
    this.#lambdaLevel = lambda !== undefined;
    const named = env.POWERTOOLS_LOG_LEVEL?.trim() || env.LOG_LEVEL?.trim();
    this.#initialLevel = lambda ?? levelOf(named) ?? logLevels.INFO;
    const rate = Number(env.POWERTOOLS_LOGGER_SAMPLE_RATE ?? 0);
    this.#samplingRate = rate >= 0 && rate <= 1 ? rate : 0;
    // POWERTOOLS_DEV: the global console (test runners show it) and indented JSON.
    this.#dev = /^\s*(1|y|yes|t|true|on)\s*$/i.test(env.POWERTOOLS_DEV ?? '');
    this.#level = this.#sample(undefined);
  }

  /**
   * The running invocation's threshold (sampling may have lowered it): a line is written when its
   * level's number is at least this.
   */
  get level(): number {
    return this.#invocation.getStore()?.level ?? this.#level;
  }

  readonly debug = (message: string, fields?: object) => this.#write('DEBUG', message, fields);
  readonly info = (message: string, fields?: object) => this.#write('INFO', message, fields);
  readonly warn = (message: string, fields?: object) => this.#write('WARN', message, fields);
  readonly error = (message: string, fields?: object) => this.#write('ERROR', message, fields);

  /**
   * Starts an invocation: its members, its cold start and its sampling decision hold for the rest
   * of its async work, whatever other invocations start meanwhile. `enterWith` rather than `run`:
   * middy has no hook around the handler, and a `before` middleware that enters a store shares it
   * with everything the request awaits after it. As Powertools, the first invocation keeps the
   * decision made at construction and every later one is sampled before it starts.
   */
  addContext(context: Context): void {
    const level = this.#previous ? this.#sample(this.#sampledLineInvocation()) : this.#level;
    const invocation = { context, coldStart: this.#coldStart, level };
    // Powertools' cold start: the first invocation the process starts, whoever finishes first.
    this.#coldStart = false;
    this.#previous = invocation;
    this.#invocation.enterWith(invocation);
  }

  /**
   * Whose members the sampling line carries. Powertools writes it before the new context: in
   * sequence the previous invocation's; with concurrent invocations (its per-invocation store)
   * none at all.
   */
  #sampledLineInvocation(): Invocation | undefined {
    return process.env.AWS_LAMBDA_MAX_CONCURRENCY ? undefined : this.#previous;
  }

  /** POWERTOOLS_LOGGER_SAMPLE_RATE: that share of invocations is logged at DEBUG; their level. */
  #sample(lineInvocation: Invocation | undefined): number {
    if (this.#samplingRate === 0) return this.#initialLevel;
    const sampled = Math.random() <= this.#samplingRate && this.#initialLevel > logLevels.TRACE;
    const level = sampled && !this.#lambdaLevel ? logLevels.DEBUG : this.#initialLevel;
    if (sampled && level <= logLevels.DEBUG)
      this.#line('DEBUG', 'Setting log level to DEBUG due to sampling rate', {}, lineInvocation);
    return level;
  }

  #write(level: keyof typeof methods, message: string, fields: object = {}): void {
    const invocation = this.#invocation.getStore();
    if (logLevels[level] >= (invocation?.level ?? this.#level))
      this.#line(level, message, fields, invocation);
  }

  #line(
    level: keyof typeof methods,
    message: string,
    fields: object,
    invocation: Invocation | undefined,
  ): void {
    const context = invocation?.context;
    const line: Record<string, unknown> = {
      level,
      message,
      timestamp: timestamp(new Date()),
      service: this.#service,
      // `cold_start` is true on the process's first invocation's lines, and only on demand.
      cold_start: invocation?.coldStart,
      function_arn: context?.invokedFunctionArn,
      function_memory_size: context?.memoryLimitInMB,
      function_name: context?.functionName,
      function_request_id: context?.awsRequestId,
      sampling_rate: this.#samplingRate,
      xray_trace_id: traceId(),
      tenant_id: context?.tenantId,
    };
    for (const [key, value] of Object.entries(fields)) {
      if (reserved.has(key)) this.warn(`The key "${key}" is a reserved key and will be dropped.`);
      else if (value !== undefined || line[key] === undefined) line[key] = value;
    }
    // As Powertools: no empty top-level members.
    for (const key in line)
      if (line[key] === undefined || line[key] === '' || line[key] === null) delete line[key];
    const text = JSON.stringify(line, replacer(this.#replacer, this.#dev), this.#dev ? 4 : 0);
    // Straight to the stream Powertools' console writes to (warnings and errors on stderr): a
    // stream is only opened when a line needs it.
    if (this.#dev) console[methods[level]](text);
    else (logLevels[level] < logLevels.WARN ? process.stdout : process.stderr).write(`${text}\n`);
  }
}

/** Powertools' `injectLambdaContext`, reduced to what it did here: the context on each line. */
export function logContext<TEvent, TResult, TContext extends Context>(
  logger: JsonLogger,
): MiddlewareObj<TEvent, TResult, Error, TContext> {
  return {
    before: function addLogContext(request) {
      logger.addContext(request.context);
    },
  };
}

/** ISO 8601, in UTC unless `TZ` names another zone, then with that zone's offset. */
function timestamp(now: Date): string {
  const zone = process.env.TZ?.trim();
  if (!zone || zone.includes('UTC')) return now.toISOString();
  const offset = -now.getTimezoneOffset();
  const local = new Date(now.getTime() + offset * 60_000).toISOString().slice(0, -1);
  const pad = (n: number) => String(n).padStart(2, '0');
  const abs = Math.abs(offset);
  return `${local}${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The X-Ray trace's root: from Lambda's invoke store where it has one, else the variable. */
function traceId(): string | undefined {
  type Store = { getXRayTraceId(): string | undefined };
  const store = (globalThis as { awslambda?: { InvokeStore?: Store } }).awslambda?.InvokeStore;
  const header = store?.getXRayTraceId() ?? process.env._X_AMZN_TRACE_ID?.trim() ?? '';
  if (!header.includes('=')) return header || undefined;
  return header
    .split(';')
    .find((field) => field.startsWith('Root='))
    ?.slice(5);
}

/**
 * Powertools' replacer: the caller's first (log-text.ts escapes strings there), then errors as
 * objects, bigints as text; circular references and the two names its merge drops left out.
 */
function replacer(first: Replacer | undefined, dev: boolean) {
  const ancestors: unknown[] = [];
  return function replace(this: unknown, key: string, value: unknown): unknown {
    if (key === '__proto__' || key === 'constructor') return undefined;
    let replaced = first ? first(key, value) : value;
    if (replaced instanceof Error) {
      // Its own enumerable members last (an SDK error's `$metadata`); a cause meets this again.
      const { name, message, stack, cause } = replaced;
      const frame = stack?.split('\n').find((line) => /\([^()]*?:\d+?:\d+?\)\\?$/.test(line));
      const location = frame?.replace(/^.*\(([^()]*?):(\d+?):\d+?\)\\?$/, '$1:$2') ?? '';
      const lines = dev && typeof stack === 'string' ? stack.split('\n') : stack;
      replaced = Object.assign({ name, location, message, stack: lines, cause }, replaced);
    }
    if (typeof replaced === 'bigint') return replaced.toString();
    if (typeof replaced === 'object' && replaced !== null) {
      while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
      if (ancestors.includes(replaced)) return undefined;
      ancestors.push(replaced);
    }
    return replaced;
  };
}

function levelOf(name: string | undefined): number | undefined {
  const upper = name?.toUpperCase();
  return upper && Object.hasOwn(logLevels, upper)
    ? logLevels[upper as keyof typeof logLevels]
    : undefined;
}
