/** `npm run resubmit`: sends a kept refusal's body again, byte for byte (docs/operations.md). */
import { apiKeyVariable, resolveApiKey, withKeyOptions } from '../cli/api-key-option.js';
import { httpUrl, positiveInteger, UsageError } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { terminalText } from '../cli/terminal-text.js';
import { explainNetworkFailure } from '../gateway/delivery-failure.js';
import { localData } from '../local/local-data.js';
import { localApiKey, runningServer } from '../local/local-target.js';
import { isLoopbackUrl } from '../operations/events/loopback-url.js';
import { answerText, resubmitRefusal } from '../operations/refusals/resubmit.js';
import { digestPrefix, minDigestPrefix } from '../table/kept-refusals.js';
import { withTableOptions } from './table-target.js';
import { wholeRefusal } from './whole-refusal.js';

const program = withTableOptions(
  withKeyOptions(
    commandProgram('resubmit', "Send a kept refusal's body again and report the answer.", {
      ok: 'the receiver answered 2xx',
      differences: 'it refused again (4xx); a 5xx or no answer is a failure (3)',
    })
      .argument(
        '<refusal>',
        `its digest, or the first ${minDigestPrefix}+ hex digits of it (query refused)`,
      )
      .option(
        '--url <url>',
        'callback URL (default: the running npm start server)',
        httpUrl('--url'),
      ),
    'for a local URL the key local mode accepts',
  )
    .option('--content-type <type>', 'instead of the kept Content-Type')
    .option('--timeout-ms <n>', 'for the request', positiveInteger('--timeout-ms'), 10_000)
    .addHelpText(
      'after',
      `
The key is sent only as x-api-key; it is never printed.`,
    ),
  'a deployed refusals table (stack output RefusalsTableName)',
).action(async (digest, flags) => {
  const wanted = digestPrefix('<refusal>', digest);
  const data = localData(process.env.DATA_DIR);
  const server = await runningServer(data);
  const url = flags.url ?? server?.url;
  if (!url) throw new UsageError('no running npm start server found: pass --url <callback URL>');
  const key = await resolveApiKey(flags, 'resubmit', async () =>
    isLoopbackUrl(url) ? localApiKey(data, server) : undefined,
  );
  if (!key)
    throw new UsageError(`give the API key for ${url}: --key-file <path> or ${apiKeyVariable}`);

  // The lock was read above to find the server: the refusals are read through it too.
  const refusal = await wholeRefusal(flags, wanted, 'it cannot be sent again as it was', {
    lockOwner: server,
  });
  const target = {
    url,
    apiKey: key,
    timeoutMs: flags.timeoutMs,
    ...(flags.contentType !== undefined ? { contentType: flags.contentType } : {}),
  };
  const answer = await resubmitRefusal(refusal, target).catch((error: unknown) => {
    throw new Error(explainNetworkFailure(error, url, flags.timeoutMs), { cause: error });
  });
  const was = `was ${refusal.status} ${refusal.problem}`;
  const which = `${refusal.digest.slice(0, 16)} (${refusal.reference ?? 'no reference'})`;
  const line = `${which} ${was}; now ${answerText(answer)}`;
  process.stdout.write(`${terminalText(line)}\n`);
  if (answer.status >= 500) process.exitCode = exitCodes.failed;
  else if (answer.status < 200 || answer.status > 299) process.exitCode = exitCodes.differences;
});

withExamples(program, [
  'resubmit 3f2a9c1d',
  'resubmit 3f2a9c1d --url https://example.com/callback --key-file key.txt',
]);

await runProgram(program, 'resubmit');
