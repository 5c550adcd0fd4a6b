import { type Command, CommanderError } from 'commander';
import { exitCode, reportFailure, UsageError } from './cli-errors.js';

/**
 * Parses the command line with commander and runs the command's action, with the exit codes of
 * every tool: 0 ok, 1 failed, 2 usage or input error (the action sets 1 itself for a failure it
 * reports as a result, such as a rejected callback).
 */
export async function runCommand(program: Command, argv = process.argv.slice(2)): Promise<void> {
  program
    .exitOverride()
    .showHelpAfterError(`Try: npm run ${program.name()} -- --help`)
    .allowExcessArguments(false);
  // `npm start -- --in-memory -- --port 3011` hands the second `--` through: a command without
  // operands has no use for it, so it does not end the options.
  const operandless = program.registeredArguments.length === 0 && program.commands.length === 0;
  const args = operandless ? argv.filter((arg) => arg !== '--') : argv;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    // commander has printed its own errors (an option parser's UsageError among them) already;
    // a UsageError from the action itself has not.
    if (error instanceof CommanderError && !(error instanceof UsageError)) {
      process.exitCode = error.exitCode === 0 ? exitCode.ok : exitCode.usage;
      return;
    }
    reportFailure(program.name(), error);
  }
}
