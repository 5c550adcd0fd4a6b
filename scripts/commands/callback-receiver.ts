#!/usr/bin/env node
/**
 * `callback-receiver <command>`: the one executable for every operator command (docs/tools.md).
 * Built ahead of time into dist/ (scripts/cli/build-bin.ts), each command a chunk of its own
 * loaded only when named, so `--help` and a single read start in a few tenths of a second.
 */
import * as nodeModule from 'node:module';
import { exitCodes } from '../cli/exit-codes.js';
import { binName, invokedThroughBin } from '../cli/invocation.js';

/** Each command's program: it parses process.argv and runs when imported. */
const commands = {
  start: [
    'local mode: the receiver on this machine, and its console',
    () => import('./server-command.js'),
  ],
  simulate: [
    'the gateway: send signed callbacks, duplicates and conflicts among them',
    () => import('./simulate-command.js'),
  ],
  query: [
    'read the recorded callbacks: get, list, export, summary, conflicts, refused',
    () => import('./query-command.js'),
  ],
  reconcile: [
    "compare the gateway's report with the table, by reference",
    () => import('./reconcile-command.js'),
  ],
  settle: [
    'decide an open conflict: keep the stored transaction or take the delivery',
    () => import('./settle-command.js'),
  ],
  verify: [
    "check a callback's hash the way the receiver does",
    () => import('./verify-command.js'),
  ],
  resubmit: [
    'send a kept refused delivery again, as the gateway would',
    () => import('./resubmit-command.js'),
  ],
  replay: [
    'publish the events of recorded transactions again',
    () => import('./replay-command.js'),
  ],
  redrive: ['send dead-lettered events again', () => import('./redrive-command.js')],
  console: [
    'the operator console, in a browser, on a deployed or local table',
    () => import('./console-command.js'),
  ],
} satisfies Record<string, readonly [string, () => Promise<unknown>]>;

type CommandName = keyof typeof commands;

// Node keeps the compiled code of what a command loads (the AWS SDK most of all) in its cache
// folder under the OS's temp: a second start skips compiling it again. Node 22.1 and later have
// it; an older system Node (the executable run outside npm and npx) starts without it.
nodeModule.enableCompileCache?.();

const [name, ...rest] = process.argv.slice(2);

if (name !== undefined && Object.hasOwn(commands, name)) {
  invokedThroughBin();
  // The command reads its own arguments from process.argv, after the script's path.
  process.argv = [process.argv[0] ?? 'node', process.argv[1] ?? binName, ...rest];
  await commands[name as CommandName][1]();
} else if (name === '--help' || name === '-h' || name === 'help') {
  process.stdout.write(overview());
} else {
  const why = name === undefined ? 'which command?' : `unknown command ${JSON.stringify(name)}`;
  process.stderr.write(`${binName}: ${why}\n\n${overview()}`);
  process.exitCode = exitCodes.usage;
}

function overview(): string {
  const width = Math.max(...Object.keys(commands).map((command) => command.length));
  const rows = Object.entries(commands).map(
    ([command, [summary]]) => `  ${command.padEnd(width)}  ${summary}`,
  );
  return `Usage: ${binName} <command> [options]

Commands:
${rows.join('\n')}

Each command's options and examples: ${binName} <command> --help
Output meant for another program goes to stdout; notes and progress go to stderr.

Examples:
  ${binName} query list
  ${binName} query export --since 2026-11-27 --format csv > window.csv
  ${binName} reconcile gateway-report.csv --since 2026-11-27
`;
}
