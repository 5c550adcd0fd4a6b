/** A hung connection fails (and is retried) instead of hanging the command. */
export const requestHandler = { requestTimeout: 10_000, throwOnRequestTimeout: true };
