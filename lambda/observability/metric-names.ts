/**
 * The names the functions emit and the stack reads, written once: the handlers import them to
 * emit logs and EMF metrics, `infra/` imports them to build alarms, the dashboard and the
 * functions' environment. A renamed outcome then breaks the build, not a graph.
 */

/** Powertools `service`: the log field and the `service` dimension of every metric. */
export const serviceName = 'callback-receiver';

/**
 * The metrics namespace when `POWERTOOLS_METRICS_NAMESPACE` is unset (local mode, tests). A
 * deployed stack sets its own stack name instead, so two stacks in one account never mix metrics.
 */
export const defaultMetricsNamespace = 'CallbackReceiver';

/** The environment variables Powertools reads the two names from. */
export const telemetryEnvironment = {
  serviceName: 'POWERTOOLS_SERVICE_NAME',
  metricsNamespace: 'POWERTOOLS_METRICS_NAMESPACE',
} as const;

/** One count metric per callback, named after how it was answered. */
export const outcomes = [
  /** 204: first delivery, stored. */
  'Recorded',
  /** 204: same reference and same content again. */
  'Duplicate',
  /** 409: same reference, different content (audit record written). */
  'Conflict',
  /** 409: content an operator already settled (`npm run settle`) delivered again: no alarm. */
  'SettledConflict',
  /** 401: missing or unknown API key. */
  'Unauthorized',
  /** 403: the callback's hash does not verify. */
  'HashRejected',
  /** 400/413/415/422: malformed, too large, not JSON, or failing validation. */
  'Invalid',
  /** 503 with Retry-After: DynamoDB did not answer in time or refused for now. */
  'StoreUnavailable',
  /** 500: DynamoDB refused the item itself (ValidationException, item too large). */
  'ItemRejected',
  /** 503 with Retry-After: the API keys could not be read, so no key can be judged. */
  'KeysUnavailable',
] as const;

export type Outcome = (typeof outcomes)[number];

/**
 * Refusals answered but not kept because the minute's bound on new refusals was reached (beside
 * the refusal's own outcome, e.g. `Invalid`, which is counted too).
 */
export const refusalMetrics = { notKept: 'RefusalsNotKept' } as const;

/** What the stream consumer counts (Sum per invocation). */
export const eventMetrics = {
  published: 'EventsPublished',
  failed: 'EventsNotPublished',
  unpublishable: 'UnpublishableRecords',
} as const;
