/** A configuration the function cannot start with; the message lists every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
  }
}

/**
 * Reads variables of one environment, collecting a problem per bad variable instead of stopping
 * at the first, so one failed cold start names everything to fix. A problem names the variable
 * and what it must be, never the value: some variables are secrets.
 */
export interface EnvironmentReader {
  /** A non-empty value; `message` says what it is for. */
  text(name: string, message: string): string;
  /** Unset is undefined; set, it must not be empty. */
  optionalText(name: string, message: string): string | undefined;
  /** A positive integer in decimal digits, or `fallback` when unset. */
  positiveInt(name: string, fallback: number): number;
  /** One of `choices`, or `fallback` when unset. */
  oneOf<const Choice extends string>(
    name: string,
    choices: readonly Choice[],
    fallback: Choice,
  ): Choice;
  /** A problem no single reading finds (two variables that depend on each other). */
  problem(name: string, message: string): void;
}

/** `build`'s result, or a {@link ConfigError} listing every problem its reads found. */
export function readEnvironment<T>(
  env: NodeJS.ProcessEnv,
  build: (read: EnvironmentReader) => T,
): T {
  const problems: string[] = [];
  const problem = (name: string, message: string) => {
    problems.push(`${name}: ${message}`);
  };
  const result = build({
    text(name, message) {
      const value = env[name];
      if (value === undefined || value === '') problem(name, message);
      return value ?? '';
    },
    optionalText(name, message) {
      const value = env[name];
      if (value === '') problem(name, message);
      return value;
    },
    positiveInt(name, fallback) {
      const value = env[name];
      if (value === undefined) return fallback;
      if (!/^[1-9]\d*$/.test(value)) problem(name, 'must be a positive integer');
      return Number(value);
    },
    oneOf(name, choices, fallback) {
      const value = env[name];
      if (value === undefined) return fallback;
      const choice = choices.find((candidate) => candidate === value);
      if (choice === undefined) problem(name, `must be one of ${choices.join(', ')}`);
      return choice ?? fallback;
    },
    problem,
  });
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  return result;
}
