/** `npm run settle`: an operator's decision on a conflict, recorded (docs/operations.md). */
import { Option } from '@commander-js/extra-typings';
import { positiveInteger } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { terminalText } from '../cli/terminal-text.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';
import { operatorIdentity } from '../operations/settle/operator-identity.js';
import { SettleRefusedError, settleConflict } from '../operations/settle/settle.js';
import { settleOutcomeText } from '../operations/settle/settle-outcome.js';
import { noteLocalChanges } from './local-events.js';
import { withTableOptions, withTarget } from './table-target.js';

const program = commandProgram(
  'settle',
  'Settle a conflict: accept the received content as a correction, or keep the stored one.',
  { ok: 'the decision recorded' },
)
  .argument('<reference>', "the gateway's reference")
  .addOption(
    new Option('--accept <side>', 'which content is right')
      .choices(['received', 'stored'] as const)
      .makeOptionMandatory(),
  )
  .option('--reason <text>', 'why, for the record (required): a ticket, what the gateway said')
  .option(
    '--conflict <id>',
    'the conflict to settle when the reference has several (query conflicts shows ids)',
  )
  .option(
    '--expect-version <n>',
    'the transaction version you reviewed: refused if it changed',
    positiveInteger('--expect-version'),
  )
  .addHelpText(
    'after',
    `
Refused (exit 2, nothing written): unknown reference, no open conflict, the transaction changed
since it was read (another operator settled first), or no --reason. The operator is recorded as
the caller's IAM ARN on AWS, as the OS user against local mode.`,
  );

withTableOptions(program).action(async (reference, flags) => {
  const aws = flags.endpoint ? !isLoopbackUrl(flags.endpoint) : flags.table !== undefined;
  try {
    const result = await withTarget(flags, async (target) =>
      settleConflict(target, {
        reference,
        ...(flags.conflict !== undefined ? { conflict: flags.conflict } : {}),
        ...(flags.expectVersion !== undefined ? { expectVersion: flags.expectVersion } : {}),
        decision: {
          accept: flags.accept,
          reason: flags.reason ?? '',
          actor: await operatorIdentity({ aws }),
          at: new Date().toISOString(),
        },
      }),
    );
    process.stdout.write(`${terminalText(settleOutcomeText(result))}\n`);
    // Local mode's forwarding follows new items, not changed ones: tell it of this change.
    await noteLocalChanges(flags, [reference]);
  } catch (error) {
    if (!(error instanceof SettleRefusedError)) throw error;
    process.stderr.write(`${terminalText(`settle refused: ${error.message}`)}\n`);
    process.exitCode = exitCodes.usage;
  }
});

withExamples(program, [
  'settle T-1001 --accept received --reason OPS-1234',
  "settle T-1001 --accept stored --reason 'gateway confirmed' --expect-version 2",
]);

await runProgram(program, 'settle');
