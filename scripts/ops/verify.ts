/**
 * `npm run verify -- <body file | -> --key-file <file>`, or `--refusal <digest>` for a body kept
 * with a refusal: whether the hash verifies with a key, which rebuilt text matched, and when none
 * did, each candidate's digest. The key is never printed. Exit 0 verified, 1 not verified (or the
 * refusal is not there), 2 usage or input error.
 */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { findRefusal, minDigestPrefix } from '../query/refusal-queries.js';
import { withRefusalsTable } from '../query/refusals-target.js';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, runProgram } from '../shared/command-program.js';
import { terminalText } from '../shared/terminal-text.js';
import { explainHash, type HashExplanation } from './hash-explanation.js';
import { InputError } from './input-error.js';

interface VerifyOptions {
  readonly key?: string;
  readonly keyFile?: string;
  readonly refusal?: string;
  readonly table?: string;
  readonly endpoint?: string;
}

const program = commandProgram(
  'verify',
  "Check a callback body's hash against an API key, and show what was hashed.",
)
  .argument('[body]', 'the raw body, exactly as received; - for stdin')
  .option('--key <key>', 'the API key (shell history keeps it: prefer --key-file)')
  .option('--key-file <path>', 'a file holding the API key (one trailing newline is ignored)')
  .option('--refusal <digest>', 'instead of a body: a refusal kept for audit (query refused)')
  .option('--table <name>', 'with --refusal: a deployed refusals table (RefusalsTableName)')
  .option('--endpoint <url>', 'with --refusal: a DynamoDB-compatible endpoint')
  .action(async (bodyPath: string | undefined, options: VerifyOptions) => {
    if ((bodyPath === undefined) === (options.refusal === undefined)) {
      throw new UsageError('give a body file (or -) or --refusal <digest>, one of them');
    }
    const key = await readKey(options);
    const body =
      options.refusal === undefined
        ? await readInput(bodyPath as string, 'the body')
        : await refusedBody(options.refusal, options);
    const explanation = explainHash(body, key);
    process.stdout.write(describe(explanation));
    process.exitCode = explanation.verified ? 0 : 1;
  });

async function readKey(options: VerifyOptions): Promise<string> {
  if ((options.key === undefined) === (options.keyFile === undefined)) {
    throw new UsageError('give the key with exactly one of --key or --key-file');
  }
  const key = options.key ?? (await readInput(options.keyFile as string, 'the key file'));
  const trimmed = options.key === undefined ? key.replace(/\r?\n$/, '') : key;
  if (trimmed === '') throw new UsageError('the key is empty');
  if (trimmed !== trimmed.trim()) {
    // Said without the key: a pasted key with a space is the likeliest reason for a mismatch.
    process.stderr.write('verify: note: the key starts or ends with white space\n');
  }
  return trimmed;
}

/** The body kept with a refusal, as the receiver read it (UTF-8 text of the bytes received). */
async function refusedBody(digest: string, options: VerifyOptions): Promise<string> {
  if (!/^[0-9a-fA-F]+$/.test(digest) || digest.length < minDigestPrefix || digest.length > 64) {
    throw new UsageError(`--refusal must be ${minDigestPrefix} to 64 hex digits of a digest`);
  }
  const refusal = await withRefusalsTable(options, async (target) => {
    const found = await findRefusal(target.client, target.tableName, digest);
    if (!found) throw new Error(`no kept refusal ${digest} in ${target.description}`);
    return found;
  });
  if (refusal.bodyKept === 'part') {
    throw new Error(
      `only the first ${refusal.body.length} of ${refusal.bodyBytes} bytes of that body were kept: ` +
        'its hash cannot be checked',
    );
  }
  return Buffer.from(refusal.body).toString('utf8');
}

async function readInput(path: string, what: string): Promise<string> {
  try {
    return path === '-' ? await text(process.stdin) : await readFile(path, 'utf8');
  } catch {
    throw new InputError(`cannot read ${what} ${path}`);
  }
}

function describe({ received, verified, candidates }: HashExplanation): string {
  const lines: string[] = [];
  if (received === undefined) {
    lines.push('The body carries no hash (absent or empty): nothing to verify.');
  } else if (verified) {
    const matched = candidates.find((candidate) => candidate.matches);
    lines.push(`Verified: the hash matches ${matched?.form ?? 'a rebuilt text'}.`);
    return `${lines.join('\n')}\n`;
  } else {
    lines.push(
      `Not verified: the hash ${terminalText(received)} matches none of the texts the receiver rebuilds.`,
      'Likely causes: another key; a proxy that re-serialized the body; a body file that is not',
      'the exact bytes received. Digests of SHA-256(text + key) for each candidate text:',
    );
  }
  candidates.forEach((candidate, index) => {
    lines.push(
      '',
      `${index + 1}. ${candidate.form}`,
      `   sha256 ${candidate.digest}`,
      `   text   ${terminalText(candidate.text)}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

await runProgram(program, 'verify');
