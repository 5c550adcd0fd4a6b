/**
 * `npm run verify -- <body file | -> --key <key>`: whether a callback body's hash verifies with a
 * key, which rebuilt text matched, and when none did, each candidate's digest. The key is never
 * printed. Exit 0 verified, 1 not verified, 2 usage or input error.
 */
import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { UsageError } from '../shared/cli-errors.js';
import { commandProgram, runProgram } from '../shared/command-program.js';
import { terminalText } from '../shared/terminal-text.js';
import { explainHash, type HashExplanation } from './hash-explanation.js';
import { InputError } from './input-error.js';

interface VerifyOptions {
  readonly key?: string;
  readonly keyFile?: string;
}

const program = commandProgram(
  'verify',
  "Check a callback body's hash against an API key, and show what was hashed.",
)
  .argument('<body>', 'the raw body, exactly as received; - for stdin')
  .option('--key <key>', 'the API key (shell history keeps it: prefer --key-file)')
  .option('--key-file <path>', 'a file holding the API key (one trailing newline is ignored)')
  .action(async (bodyPath: string, options: VerifyOptions) => {
    const key = await readKey(options);
    const body = await readInput(bodyPath, 'the body');
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
