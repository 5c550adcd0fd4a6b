import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as z from 'zod';

/**
 * The value schemas deployment options are built from (deployment-options.ts). Command-line
 * values are strings: these accept the string form and the JSON form (cdk.json) alike.
 */
export const text = z.string().trim();
export const booleanValue = z.union([
  z.boolean(),
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false'], 'must be true or false'))
    .transform((value) => value === 'true'),
]);
const numberFrom = (pattern: RegExp, message: string) =>
  z.union([z.number(), z.string().trim().regex(pattern, message).transform(Number)]);
export const positiveInteger = numberFrom(/^\d+$/, 'must be a positive integer').pipe(
  z.number().int('must be a positive integer').positive('must be a positive integer'),
);
export const positiveNumber = numberFrom(/^\d+(\.\d+)?$/, 'must be a positive number').pipe(
  z.number().positive('must be a positive number'),
);

/** `203.0.113.7` becomes `203.0.113.7/32`, `2001:db8::1` becomes `2001:db8::1/128`. */
export const cidr = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => (value.includes('/') ? value : `${value}/${isIpv6Cidr(value) ? 128 : 32}`))
  .pipe(
    z
      .union([z.cidrv4(), z.cidrv6()], { error: 'must be an IPv4 or IPv6 address or CIDR' })
      // WAF IP sets take every prefix but /0, which would allow the whole internet anyway.
      .refine((value) => !value.endsWith('/0'), 'a /0 prefix allows every address'),
  );
/** A JSON array in cdk.json, or comma-separated on the command line; blanks dropped. */
export const listOf = <Item extends z.ZodType<unknown, string>>(item: Item, empty: string) =>
  z
    .union([z.array(z.string()), z.string()])
    .transform(listEntries)
    .pipe(z.array(item).min(1, empty));

/**
 * A list option's entries as {@link listOf} reads them (split on commas when a string, trimmed,
 * blanks dropped): error messages name a bad item by the same position.
 */
export function listEntries(value: unknown): string[] {
  const items: readonly unknown[] = Array.isArray(value) ? value : String(value).split(',');
  return items.map((entry) => String(entry).trim()).filter((entry) => entry !== '');
}

export const retentionValues = Object.values(RetentionDays).filter(
  (value): value is RetentionDays => typeof value === 'number',
);

/** Whether a normalized CIDR is IPv6 (WAF keeps IPv4 and IPv6 in separate IP sets). */
export function isIpv6Cidr(value: string): boolean {
  return value.includes(':');
}
