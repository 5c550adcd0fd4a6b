/** `npm run verify`: checks a hash against a key, never printing it (docs/operations.md). */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';

import { computeHash, type HashedText, verifyHash } from '../../lambda/callback/callback-hash.js';
import { apiKeyVariable, resolveApiKey, withKeyOptions } from '../cli/api-key-option.js';
import { UsageError, unreadableFile } from '../cli/cli-errors.js';
import { commandProgram, exitCodes, runProgram, withExamples } from '../cli/command-program.js';
import { terminalText } from '../cli/terminal-text.js';
import { localData } from '../local/local-data.js';
import { localApiKey, runningServer } from '../local/local-target.js';
import { explainHash, hashVerdict } from '../operations/hash-explanation.js';
import { digestPrefix } from '../table/kept-refusals.js';
import { type KnownLock, type TargetFlags, withTableOptions } from './table-target.js';
import { wholeRefusal } from './whole-refusal.js';

const program = withTableOptions(
  withKeyOptions(
    commandProgram(
      'verify',
      "Check a callback body's hash against an API key, and show what was hashed.",
      { ok: 'the hash verifies', differences: 'it does not, or the body carries no hash' },
    ).argument('[body-file]', 'a file holding the raw body, exactly as received; - for stdin'),
    "without --table local mode's own key (CALLBACK_API_KEYS' first, else DATA_DIR's dev key)",
  ).option('--refusal <digest>', 'instead of a body: a refusal kept for audit (query refused)'),
  'with --refusal: a deployed refusals table (RefusalsTableName)',
).action(async (bodyPath, options) => {
  if ((bodyPath === undefined) === (options.refusal === undefined)) {
    throw new UsageError('give a body file (or -) or --refusal <digest>, one of them');
  }
  const lock = localLock();
  const key = await readKey(options, lock);
  const body =
    options.refusal === undefined
      ? await readInput(bodyPath as string, 'the body')
      : await refusedBody(digestPrefix('--refusal', options.refusal), options, lock.known());
  const { received, candidates } = explainHash(body);
  const digests = candidates.map(({ text }) => computeHash(text, key));
  const verified =
    received !== undefined &&
    verifyHash(
      candidates.map(({ text }) => text),
      key,
      received,
    );
  process.stdout.write(describe(received, verified, candidates, digests));
  process.exitCode = verified ? exitCodes.ok : exitCodes.differences;
});

/**
 * Local mode's running server, looked up at most once: it names the key's source, and the
 * refusals are then read through it without reading the lock again.
 */
function localLock() {
  const data = localData(process.env.DATA_DIR);
  let read: KnownLock | undefined;
  return {
    data,
    server: async () => {
      read ??= { lockOwner: await runningServer(data) };
      return read.lockOwner;
    },
    known: () => read,
  };
}

/** A deployed table's keys are not local mode's: only a local check falls back to them. */
async function readKey(
  options: { key?: string; keyFile?: string; table?: string },
  lock: ReturnType<typeof localLock>,
) {
  const key = await resolveApiKey(options, 'verify', async () => {
    if (options.table !== undefined) return undefined;
    return localApiKey(lock.data, await lock.server());
  });
  if (key === undefined) {
    throw new UsageError(
      `give the key: --key-file <path> or ${apiKeyVariable} (local mode's own key is used ` +
        'when DATA_DIR holds one)',
    );
  }
  return key;
}

/** The body kept with a refusal, as the receiver read it (UTF-8 text of the bytes received). */
async function refusedBody(
  digest: string,
  flags: TargetFlags,
  known: KnownLock | undefined,
): Promise<string> {
  const refusal = await wholeRefusal(flags, digest, 'its hash cannot be checked', known);
  return Buffer.from(refusal.body).toString('utf8');
}

async function readInput(path: string, what: string): Promise<string> {
  if (/^\s*[{[]/.test(path)) {
    throw new UsageError(
      `${what} is read from a file: save the body to a file and give its path, or pipe it to -`,
    );
  }
  try {
    return path === '-' ? await text(process.stdin) : await readFile(path, 'utf8');
  } catch (error) {
    throw unreadableFile(what, path, error);
  }
}

function describe(
  received: string | undefined,
  verified: boolean,
  candidates: readonly HashedText[],
  digests: readonly string[],
): string {
  if (verified) {
    const matched = candidates.find((_, index) => digests[index] === received?.toLowerCase());
    return `${hashVerdict.verified(matched?.form ?? 'a rebuilt text')}\n`;
  }
  const lines =
    received === undefined
      ? [hashVerdict.noHash]
      : [hashVerdict.notVerified(terminalText(received)), ...hashVerdict.likelyCauses];
  candidates.forEach((candidate, index) => {
    lines.push(
      '',
      `${index + 1}. ${candidate.form}`,
      `   sha256 ${digests[index]}`,
      `   text   ${terminalText(candidate.text)}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

withExamples(program, [
  'verify body.json --key-file key.txt',
  'verify - --key-file key.txt < body.json',
  'verify --refusal 3f2a9c1d',
]);

await runProgram(program, 'verify');
