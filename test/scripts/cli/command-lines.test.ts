import { describe, expect, it } from 'vitest';
import { checkBinArguments, checkCommand, simpleCommands } from './command-lines.js';

/** The splitter and checker the docs' test and the examples' test rely on: they must catch. */

const words = (block: string) => simpleCommands(block).map((command) => command.words);
const scripts = { query: 'node dist/cli/callback-receiver.js query', synth: 'cdk synth' };

describe('simpleCommands', () => {
  it('splits a pipeline, drops redirections and comments, keeps quoted words whole', () => {
    expect(
      words(
        `npx callback-receiver query export --since "$(date -u +%F)" > out.csv 2>&1 # keep\nA=1 jq -r '.a | .b' < in.json`,
      ),
    ).toEqual([
      ['npx', 'callback-receiver', 'query', 'export', '--since', '$(date -u +%F)'],
      ['jq', '-r', '.a | .b'],
    ]);
  });

  it('joins \\-continued lines and keeps <placeholders> as words, not redirections', () => {
    expect(words('npx callback-receiver settle <reference> \\\n  --accept stored')).toEqual([
      ['npx', 'callback-receiver', 'settle', '<reference>', '--accept', 'stored'],
    ]);
  });

  it("runs case and for bodies' commands, not their keywords", () => {
    expect(
      words('case $? in\n  0) echo ok ;;\nesac\nfor s in $(seq 0 2); do\n  aws x\ndone | jq .'),
    ).toEqual([
      ['echo', 'ok'],
      ['aws', 'x'],
      ['jq', '.'],
    ]);
  });
});

describe('checkBinArguments and checkCommand', () => {
  it('accept a known command, subcommand and options', async () => {
    expect(
      await checkBinArguments(['query', 'list', '--since', '2026-11-27', '--format', 'json']),
    ).toEqual([]);
    expect(
      await checkCommand({ words: ['npm', 'run', '-s', 'query', '--', 'list'], env: {} }, scripts),
    ).toEqual([]);
  });

  it.each([
    [['npx', 'callback-receiver', 'qeury', 'list'], /unknown command qeury/],
    [['npx', 'callback-receiver', 'query', 'lst'], /unknown subcommand lst/],
    [['npx', 'callback-receiver', 'query', 'list', '--sinse', 'x'], /lists no --sinse/],
    [['npx', 'callback-receiver', 'query'], /no subcommand/],
    [['npm', 'run', 'query', 'list', '--since', 'x'], /options before --/],
    [['npm', 'run', 'querry', '--', 'list'], /no script querry/],
    [['npx', 'calback-receiver', 'query'], /no such package binary/],
    [['cdk', 'deploy'], /unknown program cdk/],
  ])('%j is refused', async (line, problem) => {
    const problems = await checkCommand({ words: line, env: {} }, scripts);

    expect(problems.join('\n')).toMatch(problem);
  });
});
