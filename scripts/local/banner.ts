import { randomUUID } from 'node:crypto';
import { isAbsolute, relative } from 'node:path';
import { detailLines } from '../cli/output/text-table.js';
import { callbackBody, sampleTransaction } from '../gateway/gateway-callback.js';
import type { KeySource, LocalServer } from './server.js';

export interface BannerSetup {
  readonly hashMode: string;
  /** Bound off loopback: the key is masked, and no line carries it. */
  readonly exposed: boolean;
  /** `DATA_DIR` as given, when given: the other tools need it too to find this server. */
  readonly dataDirSetting?: string;
}

/**
 * What `npm start` prints once it answers: where to send callbacks, where the key is (never the
 * key itself: a terminal's scrollback, a screen share or a pasted log would keep it), where the
 * data lives, one curl line that records a real (signed) callback when pasted, and the simulate
 * and query commands, right for this setup (data folder, key source, in memory, off loopback).
 */
export function banner(server: LocalServer, setup: BannerSetup, cwd = process.cwd()): string {
  const { keySource: source, engine, data } = server;
  const inMemory = data.kind === 'memory';
  const runDir = shortPath(server.runDir, cwd);
  const where = !engine.embedded
    ? `DynamoDB at ${engine.endpoint} (AWS_ENDPOINT_URL_DYNAMODB)`
    : inMemory
      ? `in memory, gone when the server stops (run files in ${runDir}/)`
      : `${runDir}/ (embedded DynamoDB, kept across restarts)`;
  // Enough of the key to recognise it, not to use it.
  const key = server.apiKey;
  const masked = `${key.slice(0, Math.min(4, Math.floor(key.length / 4)))}… (masked)`;

  // The simulator and the query tool find this server, its key file and its engine's
  // credentials through its folder, given the same DATA_DIR: an in-memory run's is a private one.
  const dataDir = inMemory ? server.runDir : setup.dataDirSetting;
  const env = dataDir ? `DATA_DIR=${shellQuote(dataDir)} ` : '';
  // `--endpoint` is an option of query's subcommands: it goes after `list`.
  const query = [
    `list --since ${new Date().toISOString().slice(0, 10)}`,
    ...(engine.embedded ? [] : [`--endpoint ${engine.endpoint}`]),
  ];
  const details = detailLines([
    ['URL', `POST ${server.url}`],
    ['API key', masked],
    ['', keyOrigin(source, cwd)],
    ['Data', where],
    ['Table', `${server.tableName}${server.tableCreated ? ' (created now)' : ''}`],
    ['Hash mode', setup.hashMode],
    ...eventLines(server, cwd),
  ]);
  const keyFromEnvironment =
    source.kind === 'environment'
      ? ['  (the tools read the key from CALLBACK_API_KEYS or CALLBACK_API_KEY there too)']
      : [];
  return [
    'Callback receiver running in local mode (the Lambda handler behind a local API Gateway)',
    '',
    details.trimEnd().replace(/^/gm, '  '),
    '',
    ...consoleLines(server),
    ...(setup.exposed ? [] : ['Record a callback:', `  ${curlLine(server, cwd)}`, '']),
    'In another shell:',
    `  ${env}npx callback-receiver simulate --count 200 --duplicates 0.1`,
    `  ${env}npx callback-receiver query ${query.join(' ')}`,
    ...keyFromEnvironment,
    '',
    'Ctrl-C stops the server after the callbacks in flight are recorded.',
    '',
  ].join('\n');
}

/**
 * The console's sign-in link. Unlike the API key it is printed whole: it works once (the first
 * visit spends its token) and only on this machine's loopback, so a copy left in scrollback opens
 * nothing once the owner has opened it. Its host name stays valid while the console runs, and
 * keeps the session cookie from other loopback ports only while nobody else knows it: hence
 * docs/console.md's advice to keep this output out of logs that others read.
 */
function consoleLines(server: LocalServer): string[] {
  if (!server.console) return [];
  return [
    `Console: ${server.console.url}`,
    '  (in a browser on this machine; the link signs in once: docs/console.md)',
    '',
  ];
}

/** Where events go, how to check their signature, and what an earlier run left behind. */
function eventLines(server: LocalServer, cwd: string): [string, string][] {
  const { events } = server;
  if (!events) return [['Events', 'not forwarded (--forward-events <url>, docs/events.md)']];
  const left = [
    ...(events.resumed > 0 ? [`${events.resumed} owed by the last run, sent first`] : []),
    ...(events.deadLettersBefore > 0
      ? [
          `${events.deadLettersBefore} dead letter(s) in ${shortPath(events.files.deadLetters, cwd)}`,
        ]
      : []),
  ];
  return [
    ['Events', `POSTed to ${events.url}`],
    [
      '',
      `signed; ${events.newSecret ? 'a new' : 'the kept'} secret in ${shortPath(events.files.signingSecret, cwd)}`,
    ],
    ...(left.length > 0 ? [['', left.join('; ')] as [string, string]] : []),
  ];
}

function keyOrigin(source: KeySource, cwd: string): string {
  if (source.kind === 'environment') {
    const many = source.count > 1 ? ` (${source.count} keys accepted; the first is shown)` : '';
    return `from CALLBACK_API_KEYS${many}`;
  }
  const saved = shortPath(source.file, cwd);
  const origin = source.temporary
    ? `generated for this run, in ${saved}`
    : source.reused
      ? `development key in ${saved}`
      : `development key generated now, saved in ${saved}`;
  return `${origin} (set CALLBACK_API_KEYS to choose one)`;
}

/** Relative to the working directory when inside it, else absolute. */
function shortPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}

/**
 * A Turkish-named withdrawal with a fresh reference: pasting it twice shows a duplicate. The key
 * reaches curl through its standard input (`-H @-`), read there from the key file or the
 * environment by the shell's own printf: it is in no argument list (`ps`) and no history.
 */
function curlLine(server: Pick<LocalServer, 'url' | 'apiKey' | 'keySource'>, cwd: string) {
  const fields = {
    status: 'Confirm',
    message: 'Ödeme onaylandı',
    reference: randomUUID(),
  } as const;
  const { keySource: source } = server;
  const key =
    source.kind === 'generated'
      ? `"$(cat ${shellQuote(shortPath(source.file, cwd))})"`
      : `"\${CALLBACK_API_KEYS%%,*}"`; // the first key, as the server takes it
  return [
    `printf 'x-api-key: %s\\n' ${key} |`,
    'curl -i',
    shellQuote(server.url),
    "-H 'content-type: application/json' -H @-",
    `--data-raw ${shellQuote(callbackBody(sampleTransaction(fields), server.apiKey))}`,
  ].join(' ');
}

/** POSIX single quotes; a quote inside becomes `'\''`. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
