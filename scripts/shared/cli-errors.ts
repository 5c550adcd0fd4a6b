/** A mistake in how a command was called: printed with the usage hint, never with a stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Prints the error for a person (known errors without stack) and sets a failing exit code. */
export function reportFailure(command: string, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  // node:util parseArgs reports unknown or malformed options with these codes.
  const usage =
    error instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'));
  if (usage) {
    process.stderr.write(
      `${command}: ${(error as Error).message}\nTry: npm run ${command} -- --help\n`,
    );
  } else if (error instanceof Error) {
    process.stderr.write(`${command} failed: ${error.message}\n`);
    if (process.env.DEBUG) process.stderr.write(`${error.stack}\n`);
  } else {
    process.stderr.write(`${command} failed: ${String(error)}\n`);
  }
  process.exitCode = usage ? 2 : 1;
}

export function positiveInteger(name: string, value: string): number {
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`${name} must be a positive integer, got ${value}`);
  return Number(value);
}

export function fraction(name: string, value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new UsageError(`${name} must be a fraction between 0 and 1, got ${value}`);
  }
  return number;
}
