import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { reportFailure, usageHint } from './cli-errors.js';
import { exitCodes } from './exit-codes.js';
import { binName, commandLine } from './invocation.js';
import { npmHint } from './npm-hint.js';

export { exitCodes };

/** What 0 (and, for a command that checks something, 1) mean for one command. */
export interface ExitMeanings {
  readonly ok: string;
  readonly differences?: string;
  readonly interrupted?: string;
}

/** Whether runProgram has registered its uncaughtException handler in this process. */
let failureReported = false;

const meaningsOf = new WeakMap<CommandUnknownOpts, ExitMeanings>();
const examplesOf = new WeakMap<CommandUnknownOpts, readonly string[]>();

/**
 * Two or three command lines that `--help` ends with, each as typed after `npx callback-receiver`
 * (test/scripts/cli checks that every one of them parses).
 */
export function withExamples<C extends CommandUnknownOpts>(
  command: C,
  lines: readonly string[],
): C {
  examplesOf.set(command, lines);
  return command;
}

/**
 * A commander program for `npm run <name>` and `callback-receiver <name>`: usage errors are one `<name>: …` line and the hint,
 * exit 2; its `--help` ends with the exit codes, told in `exits` for this command.
 */
export function commandProgram(name: string, description: string, exits: ExitMeanings) {
  const program = new Command(commandLine(name))
    .description(description)
    .showHelpAfterError(usageHint(name))
    .configureOutput({
      // Commander's `error: …` becomes `<name>: …`, as every other usage error reads.
      outputError: (message, write) => write(message.replace(/^error: /, `${name}: `)),
    })
    .exitOverride();
  meaningsOf.set(program, exits);
  return program;
}

/**
 * Parses argv and runs the chosen action. Commander has already printed its own message for a
 * usage error; anything the action throws is reported by reportFailure (UsageError exits 2,
 * anything else 3), and so is an exception nothing caught, so a crash never exits 1.
 */
export async function runProgram(
  program: CommandUnknownOpts,
  name: string,
  argv: readonly string[] = process.argv,
): Promise<void> {
  // Node exits 1 on an uncaught exception or unhandled rejection: 1 means "differences" here.
  // Once per process: a program run again in the same process (the tests) adds no listener.
  if (!failureReported) {
    failureReported = true;
    process.on('uncaughtException', (error) => {
      reportFailure(name, error);
      process.exit();
    });
  }
  const helpText = exitCodesHelp(meaningsOf.get(program) ?? { ok: 'done' });
  for (const command of allCommands(program)) {
    // Subcommands inherit exitOverride and output only when created after they are set.
    command.exitOverride().configureOutput(program.configureOutput());
    if (command !== program) command.showHelpAfterError(usageHint(name));
    // Registered last, so it follows any help text the command added itself; the examples,
    // what a reader copies, close it.
    command.addHelpText('after', helpText);
    const examples = examplesOf.get(command);
    if (examples && examples.length > 0) command.addHelpText('after', examplesHelp(examples));
  }
  // `npm start -- --in-memory -- --port 3011` hands the second `--` through: a command without
  // operands has no use for it, so it does not end the options there.
  const operandless = program.registeredArguments.length === 0 && program.commands.length === 0;
  try {
    await program.parseAsync(operandless ? argv.filter((arg) => arg !== '--') : [...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode !== 0) {
        const hint = npmHint(name, error.code, allCommands(program));
        if (hint) process.stderr.write(`${hint}\n`);
      }
      process.exitCode = error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
      return;
    }
    reportFailure(name, error);
  }
}

/** The end of every `--help`: this command's meanings, the shared ones, where they are told. */
function exitCodesHelp(exits: ExitMeanings): string {
  const rows: [number, string][] = [
    [exitCodes.ok, exits.ok],
    ...(exits.differences ? [[exitCodes.differences, exits.differences] as [number, string]] : []),
    [exitCodes.usage, 'usage or input error: nothing was done'],
    [exitCodes.failed, 'failed: a crash, an unreachable table or server, a lost connection'],
    ...(exits.interrupted ? [[exitCodes.interrupted, exits.interrupted] as [number, string]] : []),
  ];
  const lines = rows.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`);
  return `\nExit codes (the same in every command: docs/tools.md):\n${lines.join('\n')}`;
}

function examplesHelp(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  npx ${binName} ${line}`).join('\n')}`;
}

function allCommands(command: CommandUnknownOpts): CommandUnknownOpts[] {
  return [command, ...command.commands.flatMap(allCommands)];
}
