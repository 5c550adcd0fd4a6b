import { exitCodes } from './exit-codes.js';
import { commandLine } from './invocation.js';
import { terminalText } from './terminal-text.js';

/**
 * A mistake in how a command was called: printed with the usage hint, never with a stack, exit
 * 2. Option parsers throw it too: commander lets it through to reportFailure.
 */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The one hint under every usage error, commander's and ours alike. */
export function usageHint(command: string): string {
  return `Try: ${commandLine(command)} --help`;
}

/**
 * Prints the error for a person (known errors without stack) and sets its exit code: 2 for a
 * usage error, 3 for anything else, never 1 (the code for differences found). A message may
 * carry stored or received text: escaped for the terminal, line by line.
 */
export function reportFailure(command: string, error: unknown): void {
  const message = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map(terminalText)
    .join('\n');
  if (error instanceof UsageError) {
    process.stderr.write(`${command}: ${message}\n${usageHint(command)}\n`);
    process.exitCode = exitCodes.usage;
    return;
  }
  process.stderr.write(`${command} failed: ${message}\n`);
  if (error instanceof Error && process.env.DEBUG) process.stderr.write(`${error.stack}\n`);
  process.exitCode = exitCodes.failed;
}

/**
 * Why a file given on the command line could not be read, in words (`no such file` for ENOENT),
 * and the name as given, cut short: a body pasted where a path belongs is not echoed whole.
 */
export function unreadableFile(what: string, path: string, error: unknown): UsageError {
  const reasons: Record<string, string> = {
    ENOENT: 'no such file',
    EACCES: 'permission denied',
    EISDIR: 'it is a folder',
    ENAMETOOLONG: 'the name is too long for a file',
  };
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const reason = reasons[code] ?? (code || (error instanceof Error ? error.message : 'unreadable'));
  const name = path.length > 60 ? `${path.slice(0, 60)}… (${path.length} characters)` : path;
  return new UsageError(`cannot read ${what} ${name}: ${reason}`);
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
