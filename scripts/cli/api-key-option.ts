import { readFile } from 'node:fs/promises';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { UsageError } from './cli-errors.js';

/** Where every tool that sends or checks with an API key reads it when no `--key-file` is given. */
export const apiKeyVariable = 'CALLBACK_API_KEY';

/**
 * `--key-file` (preferred) and `--key` (kept for old scripts; warns): a key typed on a command
 * line stays in shell history and in every local user's `ps` while the command runs.
 */
export function withKeyOptions<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
  fallback: string,
) {
  return command
    .option(
      '--key-file <path>',
      `a file holding the API key (one trailing newline is ignored); else ${apiKeyVariable}, else ${fallback}`,
    )
    .option('--key <key>', `the key itself: shell history and ps keep it (warns; use --key-file)`);
}

export interface KeyFlags {
  readonly key?: string;
  readonly keyFile?: string;
}

/**
 * The API key, from the first that gives one: `--key-file`, `--key` (with a one-line warning on
 * stderr), `CALLBACK_API_KEY`, then `localKey` (local mode's own key, when the command targets
 * local mode). No message ever carries the key: only where it came from.
 */
export async function resolveApiKey(
  flags: KeyFlags,
  command: string,
  localKey: () => Promise<string | undefined>,
): Promise<string | undefined> {
  if (flags.key !== undefined && flags.keyFile !== undefined) {
    throw new UsageError('give the key with --key-file or --key, not both');
  }
  let key: string | undefined;
  if (flags.keyFile !== undefined) {
    key = (await readKeyFile(flags.keyFile)).replace(/\r?\n$/, '');
    if (key === '') throw new UsageError(`the key file ${flags.keyFile} is empty`);
  } else if (flags.key !== undefined) {
    process.stderr.write(
      `${command}: warning: --key leaves the key in shell history and in other users' ps; ` +
        `use --key-file <path> or ${apiKeyVariable} instead\n`,
    );
    key = flags.key;
    if (key === '') throw new UsageError('--key is empty');
  } else {
    key = process.env[apiKeyVariable] || (await localKey());
  }
  if (key !== undefined && key !== key.trim()) {
    // Said without the key: a pasted key with a space is the likeliest reason for a refusal.
    process.stderr.write(`${command}: note: the key starts or ends with white space\n`);
  }
  return key;
}

async function readKeyFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`cannot read the key file ${path} (${code})`);
  }
}
