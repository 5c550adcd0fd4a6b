import { UsageError } from '../cli/cli-errors.js';
import { exitCodes } from '../cli/exit-codes.js';
import { Progress } from '../cli/output/progress.js';
import { terminalText } from '../cli/terminal-text.js';
import { localData } from '../local/local-data.js';
import { hasDeadLetters } from '../operations/events/dead-letters.js';
import { eventFiles } from '../operations/events/event-files.js';
import { redriveDeadLetters } from '../operations/events/redrive-dead-letters.js';
import { localSigningSecret } from './local-events.js';

/**
 * `npm run redrive -- --forward-to <url>`: local mode's dead letters (DATA_DIR) sent again; the
 * delivered ones leave the file. Prints one line per letter; the exit code follows docs/tools.md.
 */
export async function redriveLocalDeadLetters(url: string): Promise<number> {
  const data = localData(process.env.DATA_DIR);
  if (data.kind === 'memory') {
    throw new UsageError('an in-memory run keeps no dead letters: set DATA_DIR to its folder');
  }
  const file = eventFiles(data.dir).deadLetters;
  const signingSecret = await localSigningSecret();
  const progress = new Progress('dead letters');
  // A line per letter as it is decided: a million letters are never held to be printed at the end.
  const summary = await redriveDeadLetters(
    file,
    { url, ...(signingSecret && { signingSecret }) },
    ({ id, delivered, problem }) => {
      progress.add();
      const line = delivered
        ? `${id}: delivered; removed`
        : `${id}: kept (${problem ?? 'not delivered'})`;
      process.stdout.write(`${terminalText(line)}\n`);
    },
  ).finally(() => progress.stop());
  if (summary.handled === 0) {
    process.stdout.write(`No dead letters in ${terminalText(file)}.\n`);
    return exitCodes.ok;
  }
  process.stdout.write(
    `${terminalText(`${summary.delivered} dead letter(s) delivered to ${url} and removed from ${file}.`)}\n`,
  );
  // One the consumer still refuses is worth running again (3); one that cannot become an event
  // is an answer (1); none left is done (0).
  if (summary.refused) return exitCodes.failed;
  return (await hasDeadLetters(file)) ? exitCodes.differences : exitCodes.ok;
}
