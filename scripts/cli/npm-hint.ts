import type { CommandUnknownOpts } from '@commander-js/extra-typings';

/**
 * `npm run simulate --count 5` (the `--` forgotten): npm keeps `--count` for itself (as the
 * variable npm_config_count) and hands the command a lone `5`. Names the options npm took when
 * it can tell, so the one-line fix is plain; undefined when the error has another cause.
 */
export function npmHint(
  name: string,
  errorCode: string,
  commands: readonly CommandUnknownOpts[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (env.npm_lifecycle_event === undefined) return undefined;
  const taken = [
    ...new Set(
      commands
        .flatMap((command) => command.options)
        .map((option) => option.long)
        .filter((long): long is string => long !== undefined)
        .filter((long) => env[npmConfigName(long)] !== undefined),
    ),
  ];
  if (taken.length === 0) {
    // The value of an option npm kept arrives as a stray operand.
    return errorCode === 'commander.excessArguments'
      ? `Options go after --, else npm keeps them: npm run ${name} -- <options>`
      : undefined;
  }
  return `Options go after --, else npm keeps them (it took ${taken.join(', ')}): npm run ${name} -- ${taken[0]} …`;
}

/** `--max-attempts` and `--no-hash` reach the script as npm_config_max_attempts, npm_config_hash. */
function npmConfigName(long: string): string {
  return `npm_config_${long
    .replace(/^--(no-)?/, '')
    .replace(/-/g, '_')
    .toLowerCase()}`;
}
