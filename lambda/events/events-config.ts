import * as z from 'zod';
import { ConfigError } from '../config/config.js';

/**
 * The stream consumer's configuration, parsed once at cold start. A missing bus name stops the
 * function before it reads a record, so nothing is checkpointed as published by mistake.
 */
export const eventsConfigSchema = z
  .object({
    EVENT_BUS_NAME: z.string().min(1, 'must name the EventBridge bus (name or ARN)'),
  })
  .transform((env) => ({ eventBusName: env.EVENT_BUS_NAME }));

export type EventsConfig = z.output<typeof eventsConfigSchema>;

/** Parses the environment or throws a {@link ConfigError} naming every bad variable. */
export function loadEventsConfig(env: NodeJS.ProcessEnv = process.env): EventsConfig {
  const result = eventsConfigSchema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result.data;
}
