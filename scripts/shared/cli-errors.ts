import { exitCodes } from './command-program.js';
import { terminalText } from './terminal-text.js';

/**
 * A mistake in how a command was called: printed with the usage hint, never with a stack, exit
 * 2. Option parsers throw it too: commander lets it through to reportFailure.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Prints the error for a person (known errors without stack) and sets a failing exit code. A
 * message may carry stored or received text: escaped for the terminal, line by line.
 */
export function reportFailure(command: string, error: unknown): void {
  const message = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map(terminalText)
    .join('\n');
  if (error instanceof UsageError) {
    process.stderr.write(`${command}: ${message}\nTry: npm run ${command} -- --help\n`);
    process.exitCode = exitCodes.usage;
    return;
  }
  process.stderr.write(`${command} failed: ${message}\n`);
  if (error instanceof Error && process.env.DEBUG) process.stderr.write(`${error.stack}\n`);
  process.exitCode = exitCodes.failed;
}

// Each parser takes the option's name and returns commander's argParser, naming it in its error.

export const positiveInteger = (name: string) => (value: string) => {
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`${name} must be a positive integer, got ${value}`);
  return Number(value);
};

export const fraction = (name: string) => (value: string) => {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new UsageError(`${name} must be a fraction between 0 and 1, got ${value}`);
  }
  return number;
};

/** An absolute http(s) URL; anything else (`null`, `not-a-url`, `ftp://…`) is a usage error. */
export const httpUrl = (name: string) => (value: string) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${name} must be an absolute http:// or https:// URL, got ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `${name} must be an http:// or https:// URL, got ${url.protocol} in ${value}`,
    );
  }
  return url.href;
};
