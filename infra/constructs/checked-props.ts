import type * as z from 'zod';

/**
 * Checks a construct's props against its zod rules before anything is built (so before any
 * bundling), and refuses them with the construct's path and every rule they break (once each).
 */
export function checkProps(path: string, rules: z.ZodType, props: unknown): void {
  const result = rules.safeParse(props);
  if (!result.success) {
    throw new Error(
      `${path}: ${[...new Set(result.error.issues.map((issue) => issue.message))].join('; ')}`,
    );
  }
}
