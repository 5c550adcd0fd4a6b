import { exec } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  binCommands,
  binPath,
  checkCommand,
  type SimpleCommand,
  simpleCommands,
} from '../scripts/cli/command-lines.js';
import {
  type CliResult,
  cleanEnv,
  dataFolder,
  repoRoot,
  type ServerProcess,
  startServer,
} from '../support/local-cli.js';

/**
 * Every command line a reader would copy from the README and docs/ (the fenced sh, bash and
 * console blocks) names a command and options the commands' own --help lists, and the key
 * pipelines run as written against local mode: one server, one engine.
 */

const pages = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

interface Block {
  readonly page: string;
  readonly line: number;
  readonly text: string;
}

/** The shell of each fenced sh/bash block; a console block's `$ ` lines only. */
function shellBlocks(page: string, markdown: string): Block[] {
  const blocks: Block[] = [];
  for (const match of markdown.matchAll(/^```(sh|bash|console)\n([\s\S]*?)^```$/gm)) {
    const line = markdown.slice(0, match.index).split('\n').length + 1;
    const body = match[2] ?? '';
    const text =
      match[1] === 'console'
        ? body
            .split('\n')
            .filter((row) => row.startsWith('$ '))
            .map((row) => row.slice(2))
            .join('\n')
        : body;
    blocks.push({ page, line, text });
  }
  return blocks;
}

const blocks = (
  await Promise.all(
    pages.map(async (page) => shellBlocks(page, await readFile(join(repoRoot, page), 'utf8'))),
  )
).flat();
const commands = blocks.flatMap((block) =>
  simpleCommands(block.text).map((command) => ({ block, command })),
);
const label = ({ block, command }: { block: Block; command: SimpleCommand }) =>
  `${block.page}:${block.line} ${command.words.join(' ').slice(0, 90)}`;

describe('every command line in the docs parses', () => {
  let scripts: Record<string, string>;
  beforeAll(async () => {
    ({ scripts } = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')));
  });

  it('finds the blocks (a changed fence would hide them all)', () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(commands.length).toBeGreaterThan(80);
  });

  it.each(commands.map((entry) => [label(entry), entry.command]))('%s', async (_, command) => {
    expect(await checkCommand(command, scripts)).toEqual([]);
  });

  it('names the operator commands one way: npx callback-receiver, never npm run', () => {
    const viaNpm = commands.filter(({ command: { words } }) => {
      const [program, verb, ...rest] = words;
      const script = rest.find((word) => !word.startsWith('-'));
      return program === 'npm' && verb === 'run' && binCommands.some((name) => name === script);
    });

    expect(viaNpm.map(label)).toEqual([]);
  });
});

describe('the docs’ pipelines run as written', () => {
  const data = dataFolder('docs-commands-');
  let server: ServerProcess;
  let cwd: string;
  /** One line of the docs, found by its start, run by a shell in a scratch folder. */
  const run = async (page: string, start: string): Promise<CliResult> => {
    const line = blocks
      .filter((block) => block.page === page)
      .flatMap((block) => block.text.split('\n'))
      .find((row) => row.startsWith(start));
    if (line === undefined) throw new Error(`${page} no longer shows a line starting ${start}`);
    return shell(line);
  };
  const shell = (line: string): Promise<CliResult> =>
    new Promise((done) => {
      const env = cleanEnv({
        DATA_DIR: data.path,
        PATH: `${join(cwd, 'node_modules/.bin')}:${process.env.PATH}`,
      });
      exec(line, { cwd, env, timeout: 60_000 }, (error, stdout, stderr) =>
        done({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });

  beforeAll(async () => {
    // A reader's project folder: npx finds callback-receiver in its node_modules/.bin, and the
    // files a line writes land there, not in the repository.
    cwd = await mkdtemp(join(tmpdir(), 'docs-commands-cwd-'));
    await mkdir(join(cwd, 'node_modules/.bin'), { recursive: true });
    await symlink(binPath, join(cwd, 'node_modules/.bin/callback-receiver'));
    await symlink(join(repoRoot, 'node_modules/.bin/node'), join(cwd, 'node_modules/.bin/node'));
    server = await startServer(
      { DATA_DIR: data.path, PORT: '0' },
      { args: ['--no-console'], timeoutMs: 60_000 },
    );
    const sent = await run('README.md', 'npx callback-receiver simulate ');
    expect(sent.code, sent.stderr).toBe(0);
  }, 120_000);
  afterAll(() => server?.stop());

  it('query export … > file, then reconcile reads that file: it agrees, exit 0', async () => {
    const exported = await run('docs/querying.md', 'npx callback-receiver query export ');
    expect(exported.code, exported.stderr).toBe(0);
    const csv = await readFile(join(cwd, 'transactions-2026.csv'), 'utf8');
    expect(csv.split('\n')[0]).toMatch(/^reference,/);

    const reconciled = await run('docs/querying.md', 'npx callback-receiver reconcile ');

    expect(reconciled.code, reconciled.stdout + reconciled.stderr).toBe(0);
    expect(reconciled.stderr).toMatch(/^reconcile: window 2026-01-01T00:00:00\.000Z to /m);
  });

  it('query list --format json: stdout is one JSON document, the newest first', async () => {
    const pipeline = blocks
      .flatMap((block) => block.text.split('\n'))
      .find((row) => row.startsWith('npx callback-receiver query list --format json |'));
    expect(pipeline).toBeDefined();

    const listed = await shell((pipeline as string).split(' |')[0] as string);

    expect(listed.code, listed.stderr).toBe(0);
    const document = JSON.parse(listed.stdout) as { items: { receivedAt: string }[] };
    expect(document.items.length).toBe(50);
    const times = document.items.map((item) => item.receivedAt);
    expect(times).toEqual([...times].sort().reverse());
  });
});
