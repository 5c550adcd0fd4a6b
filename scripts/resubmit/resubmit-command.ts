/** `npm run resubmit`: sends a kept refusal's body again, byte for byte (docs/operations.md). */

import { apiKeyVariable, resolveApiKey, withKeyOptions } from '../cli/api-key-option.js';
import { httpUrl, positiveInteger, UsageError } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram } from '../cli/command-program.js';
import { terminalText } from '../cli/terminal-text.js';
import { explainNetworkFailure } from '../gateway/delivery-failure.js';
import { localData } from '../local/local-data.js';
import { isLoopbackUrl, localApiKey, runningServer } from '../local/local-target.js';
import {
  digestPrefix,
  type KeptRefusal,
  minDigestPrefix,
  wholeRefusal,
} from '../table/kept-refusals.js';
import { withTableOptions } from '../table/table-target.js';

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

  const refusal = await wholeRefusal(flags, wanted, 'it cannot be sent again as it was');
  const answer = await send(refusal, url, key, flags).catch((error: unknown) => {
    throw new Error(explainNetworkFailure(error, url, flags.timeoutMs), { cause: error });
  });
  const now = [answer.status, answer.outcome ?? answer.title, answer.detail].filter(
    (part) => part !== undefined,
  );
  const was = `was ${refusal.status} ${refusal.problem}`;
  const which = `${refusal.digest.slice(0, 16)} (${refusal.reference ?? 'no reference'})`;
  const line = `${which} ${was}; now ${now.join(' ')}`;
  process.stdout.write(`${terminalText(line)}\n`);
  if (answer.status >= 500) process.exitCode = exitCodes.failed;
  else if (answer.status < 200 || answer.status > 299) process.exitCode = exitCodes.differences;
});

/** The same delivery the gateway made, judged by the receiver as it is now. */
async function send(
  refusal: KeptRefusal,
  url: string,
  key: string,
  flags: { readonly contentType?: string; readonly timeoutMs: number },
) {
  const [, kept] =
    Object.entries(refusal.headers).find(([name]) => name.toLowerCase() === 'content-type') ?? [];
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': flags.contentType ?? kept ?? 'application/json', 'x-api-key': key },
    body: refusal.body,
    signal: AbortSignal.timeout(flags.timeoutMs),
  });
  let problem: { title?: unknown; detail?: unknown } = {};
  try {
    problem = JSON.parse(await response.text()) as typeof problem;
  } catch {
    // Not problem JSON (a proxy's page, say): the status alone is the answer.
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    status: response.status,
    /** `recorded` or `duplicate` on a 204; on a refusal, the problem's title and detail. */
    outcome: response.headers.get('x-callback-outcome') ?? undefined,
    title: text(problem.title),
    detail: text(problem.detail),
  };
}

await runProgram(program, 'resubmit');
