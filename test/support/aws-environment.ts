import { vi } from 'vitest';

/**
 * What an SDK client needs besides an endpoint, with no engine behind it: the in-memory suites
 * import this without starting one (engines.ts, which needs them started, re-exports it).
 */

/** Local engines check no signature, but the SDK insists on a region and some credentials. */
export const testRegion = 'us-east-1';
export const testCredentials = { accessKeyId: 'test', secretAccessKey: 'test' } as const;

/**
 * The region and credentials for code that builds its own clients from the environment, as the
 * function does in Lambda; `vi.unstubAllEnvs()` undoes it.
 */
export function stubAwsEnvironment(): void {
  vi.stubEnv('AWS_REGION', testRegion);
  vi.stubEnv('AWS_ACCESS_KEY_ID', testCredentials.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', testCredentials.secretAccessKey);
}
