/**
 * `npm run resubmit -- <refusal>`: sends a kept refusal's body again, byte for byte, to a
 * receiver (after a fix, local or deployed) and reports the new answer.
 */
import { InvalidArgumentError } from 'commander';
import { findRefusal, type KeptRefusal, minDigestPrefix } from '../query/refusal-queries.js';
import { withRefusalsTable } from '../query/refusals-target.js';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, runProgram } from '../shared/command-program.js';
import { localData } from '../shared/local-data.js';
import { isLoopbackUrl, localApiKey, runningServer } from '../shared/local-target.js';
import { terminalText } from '../shared/terminal-text.js';
import { describeSendFailure, sendKeptBody } from './send-kept-body.js';

interface Flags {
  readonly url?: string;
  readonly key?: string;
  readonly table?: string;
  readonly endpoint?: string;
  readonly contentType?: string;
  readonly timeoutMs: number;
}

const program = commandProgram(
  'resubmit',
  "Send a kept refusal's body again and report the answer.",
)
  .argument(
    '<refusal>',
    `its digest, or the first ${minDigestPrefix}+ hex digits of it (query refused)`,
  )
  .option('--url <url>', 'callback URL (default: the running npm start server)', httpUrl)
  .option('--key <key>', 'x-api-key (default for a local URL: the key local mode accepts)')
  .option('--table <name>', 'a deployed refusals table (stack output RefusalsTableName)')
  .option('--endpoint <url>', 'a DynamoDB-compatible endpoint (default AWS_ENDPOINT_URL_DYNAMODB)')
  .option('--content-type <type>', 'instead of the kept Content-Type')
  .option('--timeout-ms <n>', 'for the request', positiveInteger, 10_000)
  .addHelpText(
    'after',
    `
Exit code 0 when the receiver answers 2xx, 1 when it refuses again or cannot be reached, 2 for a
usage error. The key is sent only as x-api-key; it is never printed.`,
  )
  .action(async (digest: string, flags: Flags) => {
    if (!/^[0-9a-fA-F]+$/.test(digest) || digest.length < minDigestPrefix || digest.length > 64) {
      throw new UsageError(`<refusal> must be ${minDigestPrefix} to 64 hex digits of a digest`);
    }
    const data = localData(process.env.DATA_DIR);
    const server = await runningServer(data);
    const url = flags.url ?? server?.url;
    if (!url) {
      throw new UsageError('no running npm start server found: pass --url <callback URL>');
    }
    const key = flags.key ?? (isLoopbackUrl(url) ? await localApiKey(data) : undefined);
    if (!key) throw new UsageError(`pass --key <API key> for ${url}`);

    const refusal = await readRefusal(digest, flags);
    if (refusal.bodyKept === 'part') {
      throw new Error(
        `only the first ${refusal.body.length} of ${refusal.bodyBytes} bytes were kept (the body ` +
          'was over the size limit): it cannot be sent again as it was.',
      );
    }
    let answer: Awaited<ReturnType<typeof sendKeptBody>>;
    try {
      answer = await sendKeptBody(refusal, {
        url,
        key,
        timeoutMs: flags.timeoutMs,
        ...(flags.contentType ? { contentType: flags.contentType } : {}),
      });
    } catch (error) {
      throw new Error(describeSendFailure(error, url), { cause: error });
    }
    const was = `was ${refusal.status} ${refusal.problem}`;
    const now = [answer.status, answer.outcome ?? answer.title, answer.detail]
      .filter((part) => part !== undefined)
      .join(' ');
    const line = `${refusal.digest.slice(0, 16)} (${refusal.reference ?? 'no reference'}) ${was}; now ${now}`;
    process.stdout.write(`${terminalText(line)}\n`);
    if (answer.status < 200 || answer.status > 299) process.exitCode = 1;
  });

await runProgram(program, 'resubmit');

async function readRefusal(digest: string, flags: Flags): Promise<KeptRefusal> {
  return withRefusalsTable(flags, async (target) => {
    const refusal = await findRefusal(target.client, target.tableName, digest);
    if (!refusal) throw new Error(`no kept refusal ${digest} in ${target.description}`);
    return refusal;
  });
}

function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('must be an absolute http or https URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError('must be an http or https URL.');
  }
  return value;
}

function positiveInteger(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new InvalidArgumentError('must be a positive integer.');
  return Number(value);
}
