/**
 * A command that crashes after its action returned (`throw` in a timer, or a rejection nobody
 * awaits), run by test/scripts/cli/exit-codes.test.ts: Node alone would exit 1, the code for
 * differences found.
 */
import { commandProgram, runProgram } from '../../scripts/cli/command-program.js';

const program = commandProgram('crash', 'Crashes outside its action.', { ok: 'never' })
  .argument('<how>', 'throw or reject')
  .action((how) => {
    if (how === 'reject') void Promise.reject(new Error('the connection was lost'));
    else
      setTimeout(() => {
        throw new Error('the connection was lost');
      }, 0);
  });

await runProgram(program, 'crash');
