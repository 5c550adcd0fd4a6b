/**
 * Typed reading of the CDK context parameters that shape the deployment.
 *
 * Every parameter is optional; pass them with `npx cdk deploy -c name=value` (values arrive as
 * strings) or put them in `cdk.json` under "context" (values keep their JSON type). Both forms
 * are accepted below.
 *
 * | Parameter                     | Type                     | Default          | Effect |
 * | ----------------------------- | ------------------------ | ---------------- | ------ |
 * | `hashMode`                    | required/if-present/off  | `if-present`     | `HASH_MODE` of the function |
 * | `throttleRateLimit`           | number (requests/s)      | `100`            | stage steady-state throttle |
 * | `throttleBurstLimit`          | integer                  | `200`            | stage burst throttle |
 * | `allowedSourceIps`            | CIDR list                | none (no WAF)    | WAF web ACL: allow only these, block the rest |
 * | `wafRateLimit`                | integer per 5 min per IP | rate limit × 300 | WAF rate-based rule (only with `allowedSourceIps`) |
 * | `alarmEmail`                  | e-mail address           | none             | e-mail subscription on the alarm topic |
 * | `existingSecretName`          | secret name or full ARN  | none (create)    | use this secret instead of creating one |
 * | `customerManagedKey`          | boolean                  | `false`          | one KMS key for table, secret and alarm topic |
 * | `logRetentionDays`            | CloudWatch retention     | `90`             | function and access log retention |
 * | `apiGatewayCloudWatchRole`    | boolean                  | `true`           | create the account-level API Gateway logging role |
 * | `authFailureAlarmThreshold`   | integer per 5 min        | `20`             | 401/403 count that raises the spike alarm |
 *
 * Lists (`allowedSourceIps`) are a JSON array in cdk.json, or comma-separated on the command
 * line: `-c allowedSourceIps=203.0.113.10/32,198.51.100.0/28`. A bare address gets /32 (/128).
 */
import type { Node } from 'constructs';
import { hashModes } from '../lambda/config/config.js';
import type { CallbackReceiverSettings } from './callback-receiver-stack.js';

/** Names of the context parameters, so that docs, app and tests agree on the spelling. */
export const contextKeys = {
  hashMode: 'hashMode',
  throttleRateLimit: 'throttleRateLimit',
  throttleBurstLimit: 'throttleBurstLimit',
  allowedSourceIps: 'allowedSourceIps',
  wafRateLimit: 'wafRateLimit',
  alarmEmail: 'alarmEmail',
  existingSecretName: 'existingSecretName',
  customerManagedKey: 'customerManagedKey',
  logRetentionDays: 'logRetentionDays',
  apiGatewayCloudWatchRole: 'apiGatewayCloudWatchRole',
  authFailureAlarmThreshold: 'authFailureAlarmThreshold',
} as const;

export class ContextError extends Error {
  override name = 'ContextError';
}

type Lookup = (key: string) => unknown;

/**
 * Reads and validates every context parameter; throws a {@link ContextError} naming the bad one.
 * Unset parameters stay undefined, so the stack's documented defaults apply.
 */
export function readDeploymentContext(node: Pick<Node, 'tryGetContext'>): CallbackReceiverSettings {
  const get: Lookup = (key) => node.tryGetContext(key);
  return {
    hashMode: optionalEnum(get, contextKeys.hashMode, hashModes),
    throttleRateLimit: optionalNumber(get, contextKeys.throttleRateLimit, { integer: false }),
    throttleBurstLimit: optionalNumber(get, contextKeys.throttleBurstLimit, { integer: true }),
    allowedSourceIps: optionalCidrList(get, contextKeys.allowedSourceIps),
    wafRateLimit: optionalNumber(get, contextKeys.wafRateLimit, { integer: true }),
    alarmEmail: optionalEmail(get, contextKeys.alarmEmail),
    existingSecretName: optionalString(get, contextKeys.existingSecretName),
    customerManagedKey: optionalBoolean(get, contextKeys.customerManagedKey),
    logRetentionDays: optionalNumber(get, contextKeys.logRetentionDays, { integer: true }),
    apiGatewayCloudWatchRole: optionalBoolean(get, contextKeys.apiGatewayCloudWatchRole),
    authFailureAlarmThreshold: optionalNumber(get, contextKeys.authFailureAlarmThreshold, {
      integer: true,
    }),
  };
}

// A parameter given as an empty string (`-c alarmEmail=`) counts as unset.
function raw(get: Lookup, key: string): unknown {
  const value = get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

function optionalString(get: Lookup, key: string): string | undefined {
  const value = raw(get, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ContextError(`Context "${key}" must be a string`);
  return value.trim();
}

function optionalEnum<T extends string>(
  get: Lookup,
  key: string,
  allowed: readonly T[],
): T | undefined {
  const value = optionalString(get, key);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ContextError(`Context "${key}" must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

function optionalNumber(
  get: Lookup,
  key: string,
  { integer }: { integer: boolean },
): number | undefined {
  const value = raw(get, key);
  if (value === undefined) return undefined;
  const number = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
    throw new ContextError(`Context "${key}" must be a positive ${integer ? 'integer' : 'number'}`);
  }
  return number;
}

function optionalBoolean(get: Lookup, key: string): boolean | undefined {
  const value = raw(get, key);
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new ContextError(`Context "${key}" must be true or false`);
}

function optionalEmail(get: Lookup, key: string): string | undefined {
  const value = optionalString(get, key);
  if (value === undefined) return undefined;
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) {
    throw new ContextError(`Context "${key}" must be an e-mail address`);
  }
  return value;
}

function optionalCidrList(get: Lookup, key: string): string[] | undefined {
  const value = raw(get, key);
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : String(value).split(',');
  const cidrs = items.map((item) => String(item).trim()).filter((item) => item !== '');
  if (cidrs.length === 0) return undefined;
  return cidrs.map((cidr) => normalizeCidr(cidr, key));
}

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const ipv6 = /^[0-9a-f:]+$/i;

/** `203.0.113.7` → `203.0.113.7/32`; rejects anything that is not an IPv4 or IPv6 CIDR. */
export function normalizeCidr(cidr: string, key: string = contextKeys.allowedSourceIps): string {
  const [address = '', prefix, ...rest] = cidr.split('/');
  const version = ipv4.test(address) ? 4 : ipv6.test(address) && address.includes(':') ? 6 : 0;
  const maxPrefix = version === 4 ? 32 : 128;
  const bits = prefix === undefined ? maxPrefix : Number(prefix);
  if (
    version === 0 ||
    rest.length > 0 ||
    (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) ||
    bits > maxPrefix ||
    bits < 1
  ) {
    throw new ContextError(`Context "${key}": "${cidr}" is not an IPv4 or IPv6 CIDR`);
  }
  return `${address.toLowerCase()}/${bits}`;
}

/** Whether a normalized CIDR is IPv6 (WAF keeps IPv4 and IPv6 in separate IP sets). */
export function isIpv6Cidr(cidr: string): boolean {
  return cidr.includes(':');
}
