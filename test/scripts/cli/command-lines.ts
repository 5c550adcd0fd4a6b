/**
 * Shell command lines as a reader copies them (from docs or a `--help`), split into the simple
 * commands of each pipeline, and checked against the executable's own `--help`: a command it
 * knows, a subcommand it lists, options it lists. Used by the CLI's tests and the docs' test.
 */
import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '../../support/local-cli.js';

/** One command of a pipeline: its words, quotes removed, redirections and assignments set apart. */
export interface SimpleCommand {
  readonly words: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export const binPath = join(repoRoot, 'dist/cli/callback-receiver.js');

/** The commands the executable dispatches, each also an npm script of the same name. */
export const binCommands = [
  'start',
  'simulate',
  'query',
  'reconcile',
  'settle',
  'verify',
  'resubmit',
  'replay',
  'redrive',
  'console',
] as const;

const keywords = new Set(['case', 'esac', 'for', 'in', 'do', 'done', 'if', 'then', 'else', 'fi']);

/**
 * Every simple command in a block of shell: quotes and `\`-newlines as the shell reads them,
 * `# comments` dropped, `<placeholder>` one word (the docs' way to say "yours here"), and a
 * synopsis' `[--a | --b]` or `a|b` choices kept inside the command they belong to.
 */
export function simpleCommands(block: string): SimpleCommand[] {
  const text = block
    .replace(/\\\n/g, ' ')
    .replace(/\[[^[\]\n'"]*\]/g, (group) => group.replace(/\s*\|\s*/g, ','));
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  const end = () => {
    // A synopsis' next line ([--format …]) continues the command above it.
    if (words[0]?.startsWith('[') && commands.length > 0) {
      const last = commands.pop() as SimpleCommand;
      commands.push({ words: [...last.words, ...words], env: last.env });
    } else {
      const env: Record<string, string> = {};
      while (words[0] !== undefined && /^[A-Za-z_]\w*=/.test(words[0])) {
        const [name, ...value] = (words.shift() as string).split('=');
        env[name as string] = value.join('=');
      }
      // `case … in` and `for … in …` run nothing themselves; their body's commands follow.
      if (words[0] === 'case' || words[0] === 'for') words = [];
      // A case pattern (`0)`), then a keyword, opens the command that follows.
      while (words[0] !== undefined && (keywords.has(words[0]) || /^[^\s=]*\)$/.test(words[0]))) {
        words.shift();
      }
      if (words.length > 0) commands.push({ words, env });
    }
    words = [];
  };
  for (const token of tokens(text)) {
    if (token.kind === 'separator') end();
    else words.push(token.text);
  }
  end();
  return commands;
}

type Token = { kind: 'word' | 'separator'; text: string };

function* tokens(text: string): Generator<Token> {
  let index = 0;
  while (index < text.length) {
    const rest = text.slice(index);
    const space = /^[ \t]+/.exec(rest);
    if (space) {
      index += space[0].length;
      continue;
    }
    if (rest.startsWith('#')) {
      index += rest.indexOf('\n') === -1 ? rest.length : rest.indexOf('\n');
      continue;
    }
    // A redirection and its target are no part of the command's arguments.
    const redirection = /^(?:\d?>>?|<)(?:&\d|\s*(?:"[^"]*"|'[^']*'|[^\s|;&<>]+))/.exec(rest);
    if (redirection && !/^<[A-Za-z]/.test(rest)) {
      index += redirection[0].length;
      continue;
    }
    const separator = /^(?:\|\||&&|;;|[|;&\n]|[{}](?=\s|$))/.exec(rest);
    if (separator) {
      index += separator[0].length;
      yield { kind: 'separator', text: separator[0] };
      continue;
    }
    const [word, length] = readWord(text, index);
    // A lone < or > that no rule above took: a word of its own, so the scan moves on.
    index += Math.max(length, 1);
    yield { kind: 'word', text: word || (text[index - 1] as string) };
  }
}

/** A word to the next unquoted blank or operator; `$(…)` and `<placeholder>` stay whole. */
function readWord(text: string, start: number): [string, number] {
  let word = '';
  let index = start;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === "'") {
      const close = text.indexOf("'", index + 1);
      word += text.slice(index + 1, close);
      index = close + 1;
    } else if (char === '"') {
      let close = index + 1;
      while (text[close] !== '"' || text[close - 1] === '\\') close++;
      word += text.slice(index + 1, close).replace(/\\(["\\$`])/g, '$1');
      index = close + 1;
    } else if (text.startsWith('$(', index)) {
      let depth = 0;
      let close = index + 1;
      do {
        if (text[close] === '(') depth++;
        if (text[close] === ')') depth--;
        close++;
      } while (depth > 0 && close < text.length);
      word += text.slice(index, close);
      index = close;
    } else if (char === '<' && /^<[A-Za-z][^<>\n]*>/.test(text.slice(index))) {
      const close = text.indexOf('>', index);
      word += text.slice(index, close + 1);
      index = close + 1;
    } else if (/[\s|;&<>]/.test(char)) {
      break;
    } else {
      word += char;
      index++;
    }
  }
  return [word, index - start];
}

/** What `--help` lists: options (long and short) and subcommands. */
export interface HelpIndex {
  readonly options: ReadonlySet<string>;
  readonly subcommands: ReadonlySet<string>;
}

const helps = new Map<string, Promise<HelpIndex>>();

/** `callback-receiver <path…> --help`, read once per path. */
export function helpIndex(path: readonly string[]): Promise<HelpIndex> {
  const key = path.join(' ');
  let found = helps.get(key);
  if (!found) {
    found = helpText(path).then(indexOf);
    helps.set(key, found);
  }
  return found;
}

export function helpText(path: readonly string[]): Promise<string> {
  return new Promise((done, fail) =>
    execFile(
      join(repoRoot, 'node_modules/.bin/node'),
      [binPath, ...path, '--help'],
      { cwd: repoRoot, timeout: 30_000 },
      (error, stdout, stderr) =>
        error ? fail(new Error(`${key(path)} --help: ${stderr}`)) : done(stdout),
    ),
  );
}

const key = (path: readonly string[]) => ['callback-receiver', ...path].join(' ');

function indexOf(help: string): HelpIndex {
  const section = (title: string) =>
    help
      .split(`\n${title}:\n`)[1]
      ?.split(/\n\n|\n(?=\S)/)[0]
      ?.split('\n') ?? [];
  const options = new Set<string>();
  for (const line of section('Options')) {
    const match = /^ {2}(?:(-\w), )?(--[\w-]+)/.exec(line);
    if (match?.[1]) options.add(match[1]);
    if (match?.[2]) options.add(match[2]);
  }
  const subcommands = new Set<string>();
  for (const line of section('Commands')) {
    const match = /^ {2}([a-z][\w-]*)/.exec(line);
    if (match?.[1] && match[1] !== 'help') subcommands.add(match[1]);
  }
  return { options, subcommands };
}

/**
 * Problems with one of the executable's command lines (the words after `callback-receiver`):
 * an unknown command or subcommand, an option its `--help` does not list. Empty when it parses.
 */
export async function checkBinArguments(words: readonly string[]): Promise<string[]> {
  const [command, ...rest] = words;
  if ((command === '--help' || command === '-h') && rest.length === 0) return [];
  if (!binCommands.includes(command as (typeof binCommands)[number])) {
    return [`unknown command ${command ?? '(none)'}`];
  }
  const path = [command as string];
  let help = await helpIndex(path);
  const problems: string[] = [];
  for (const word of rest) {
    if (word === '--') continue;
    if (help.subcommands.size > 0 && path.length === 1 && !word.startsWith('-')) {
      if (!help.subcommands.has(word)) return [`${key(path)}: unknown subcommand ${word}`];
      path.push(word);
      help = await helpIndex(path);
      continue;
    }
    const option = word
      .replace(/^\[/, '')
      .replace(/[\],]$/, '')
      .split('=')[0] as string;
    if (/^--?[A-Za-z]/.test(option) && !help.options.has(option)) {
      problems.push(`${key(path)}: its --help lists no ${option}`);
    }
  }
  if (help.subcommands.size > 0 && path.length === 1 && !rest.includes('--help')) {
    problems.push(`${key(path)}: no subcommand`);
  }
  return problems;
}

/** Every program a docs' block may run besides ours: a typo in a name is caught too. */
const otherPrograms = new Set([
  'aws',
  'jq',
  'date',
  'printf',
  'sha256sum',
  'echo',
  'export',
  'command',
  'sudo',
  'apt-get',
  'git',
  'seq',
  'exit',
  'cat',
  'cd',
  'curl',
  'env',
]);

/**
 * Problems with one simple command from the docs: ours (`npx callback-receiver`, an npm script,
 * a command's source run by node) is checked against `--help` and package.json; another
 * program must be one the docs are known to use.
 */
export async function checkCommand(
  command: SimpleCommand,
  scripts: Readonly<Record<string, string>>,
): Promise<string[]> {
  const words = [...command.words];
  // Wrappers: what they run is the command.
  while (['sudo', 'env', '/usr/bin/time'].includes(words[0] ?? '')) {
    words.shift();
    while (words[0] !== undefined && (words[0].startsWith('-') || /^\w+=/.test(words[0]))) {
      words.shift();
    }
  }
  const [program, ...rest] = words;
  if (program === undefined) return [];
  if (program === 'npx' || program === 'callback-receiver') {
    const args = program === 'npx' ? rest : words;
    if (args[0] === 'callback-receiver') return checkBinArguments(args.slice(1));
    return (await exists(join(repoRoot, 'node_modules/.bin', args[0] ?? '')))
      ? []
      : [`npx ${args[0]}: no such package binary`];
  }
  if (program === 'npm') return checkNpm(rest, scripts);
  if (program === 'node' || program.endsWith('node_modules/.bin/node')) {
    const file = rest.find((word, index) => word.endsWith('.ts') && rest[index - 1] !== '--import');
    if (!file || !(await exists(join(repoRoot, file)))) return [`node: no such file ${file}`];
    const name = /scripts\/\w+\/(\w+)-command\.ts$/.exec(file)?.[1];
    const bin = binCommands.find((command) => command === name);
    const args = rest.slice(rest.indexOf(file) + 1);
    return bin ? checkBinArguments([bin, ...args]) : [];
  }
  return otherPrograms.has(program) ? [] : [`unknown program ${program}`];
}

async function checkNpm(
  args: readonly string[],
  scripts: Readonly<Record<string, string>>,
): Promise<string[]> {
  const [verb, ...rest] = args;
  if (verb === 'ci' || verb === 'install') return [];
  const named = verb === 'run' ? rest.filter((word) => word !== '-s' && word !== '--silent') : args;
  const [script, ...after] = named;
  if (script === undefined || scripts[script] === undefined) return [`npm: no script ${script}`];
  const bin = binCommands.find((command) => command === script);
  if (!bin) return [];
  const separator = after.indexOf('--');
  if (after.length > 0 && separator !== 0) {
    return [`npm run ${script}: options before --, which npm keeps for itself`];
  }
  return checkBinArguments([bin, ...after.slice(1)]);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
