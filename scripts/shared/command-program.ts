import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { reportFailure } from './cli-errors.js';

/**
 * Exit codes shared by every tool: 0 done, 1 failed (or found differences), 2 the command line
 * or its input was wrong, 130 stopped by Ctrl-C (after saying what was done). Commander exits 1
 * on a usage error by default; this makes it 2.
 */
export const exitCodes = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

/** A commander program for `npm run <name>`: usage errors exit 2 and point at `--help`. */
export function commandProgram(name: string, description: string) {
  return new Command(`npm run ${name} --`)
    .description(description)
    .showHelpAfterError(`(npm run ${name} -- --help for usage)`)
    .exitOverride();
}

/**
 * Parses argv and runs the chosen action. Commander has already printed its own message for a
 * usage error; anything the action throws is reported by reportFailure (UsageError exits 2).
 */
export async function runProgram(
  program: CommandUnknownOpts,
  name: string,
  argv: readonly string[] = process.argv,
): Promise<void> {
  // Subcommands inherit exitOverride only when they are created after it is set; set it on all.
  for (const command of allCommands(program)) command.exitOverride();
  // `npm start -- --in-memory -- --port 3011` hands the second `--` through: a command without
  // operands has no use for it, so it does not end the options there.
  const operandless = program.registeredArguments.length === 0 && program.commands.length === 0;
  try {
    await program.parseAsync(operandless ? argv.filter((arg) => arg !== '--') : [...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
      return;
    }
    reportFailure(name, error);
  }
}

function allCommands(command: CommandUnknownOpts): CommandUnknownOpts[] {
  return [command, ...command.commands.flatMap(allCommands)];
}
