/**
 * Whether a failed AWS call may succeed if tried again: throttling, a 5xx, a timeout or abort of
 * the attempt, or a network error. A 4xx that is not throttling (a refused item, a missing
 * table, denied access) will fail the same way again.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (retryableNames.has(error.name)) return true;
  const failure = error as {
    code?: unknown;
    $fault?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (typeof failure.code === 'string' && networkCodes.has(failure.code)) return true;
  if (failure.$fault === 'server') return true;
  const status = failure.$metadata?.httpStatusCode;
  return status !== undefined && (status >= 500 || status === 429);
}

const retryableNames = new Set([
  // Throttling, as the AWS services name it.
  'ThrottlingException',
  'Throttling',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'RequestThrottledException',
  // Server side.
  'InternalServerError',
  'InternalFailure',
  'InternalServiceError',
  'ServiceUnavailable',
  // The attempt's own timeout (`throwOnRequestTimeout`) or its abort signal.
  'TimeoutError',
  'AbortError',
]);

const networkCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
