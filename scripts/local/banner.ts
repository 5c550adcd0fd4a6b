import { randomUUID } from 'node:crypto';
import { isAbsolute, relative } from 'node:path';
import { callbackBody, sampleTransaction } from '../shared/gateway-callback.js';
import { detailLines } from '../shared/text-table.js';
import type { KeySource, LocalServer } from './local-server.js';

export interface BannerSetup {
  readonly hashMode: string;
  /** Bound off loopback: the key is masked, and no line carries it. */
  readonly exposed: boolean;
  /** `DATA_DIR` as given, when given: the other tools need it too to find this server. */
  readonly dataDirSetting?: string;
}

/**
 * What `npm start` prints once it answers: where to send callbacks, with which key, where the
 * data lives, one curl line that records a real (signed) callback when pasted, and the simulate
 * and query commands, right for this setup (data folder, key source, in memory, off loopback).
 */
export function banner(server: LocalServer, setup: BannerSetup, cwd = process.cwd()): string {
  const { keySource: source, engine, data } = server;
  const where = !engine.embedded
    ? `DynamoDB at ${engine.endpoint} (AWS_ENDPOINT_URL_DYNAMODB)`
    : data.kind === 'memory'
      ? `in memory, gone when the server stops (embedded DynamoDB at ${engine.endpoint})`
      : `${shortPath(data.dir, cwd)}/ (embedded DynamoDB, kept across restarts)`;
  // Enough of the key to recognise it, not to use it.
  const key = server.apiKey;
  const masked = `${key.slice(0, Math.min(4, Math.floor(key.length / 4)))}… (masked: bound off loopback)`;

  // The simulator and the query tool find a server on its data folder (and its saved dev key)
  // by themselves, given the same DATA_DIR; anything they cannot find is spelled out.
  const inMemory = data.kind === 'memory';
  const env =
    setup.dataDirSetting && !inMemory ? `DATA_DIR=${shellQuote(setup.dataDirSetting)} ` : '';
  const simulate = [
    ...(inMemory ? [`--url ${server.url}`] : []),
    ...(source.kind === 'generated' && source.file
      ? []
      : [`--key ${setup.exposed ? '"$CALLBACK_API_KEYS"' : shellQuote(key)}`]),
    '--count 200 --duplicates 0.1',
  ];
  const query = [
    ...(inMemory || !engine.embedded ? [`--endpoint ${engine.endpoint}`] : []),
    `list --since ${new Date().toISOString().slice(0, 10)}`,
  ];
  const details = detailLines([
    ['URL', `POST ${server.url}`],
    ['API key', setup.exposed ? masked : key],
    ['', keyOrigin(source, cwd)],
    ['Data', where],
    ['Table', `${server.tableName}${server.tableCreated ? ' (created now)' : ''}`],
    ['Hash mode', setup.hashMode],
  ]);
  return [
    'Callback receiver running in local mode (the Lambda handler behind a local API Gateway)',
    '',
    details.trimEnd().replace(/^/gm, '  '),
    '',
    ...(setup.exposed ? [] : ['Record a callback:', `  ${curlLine(server)}`, '']),
    'In another shell:',
    `  ${env}npm run simulate -- ${simulate.join(' ')}`,
    `  ${env}npm run query -- ${query.join(' ')}`,
    '',
    'Ctrl-C stops the server after the callbacks in flight are recorded.',
    '',
  ].join('\n');
}

function keyOrigin(source: KeySource, cwd: string): string {
  if (source.kind === 'environment') {
    const many = source.count > 1 ? ` (${source.count} keys accepted; the first is shown)` : '';
    return `from CALLBACK_API_KEYS${many}`;
  }
  const saved = source.file && shortPath(source.file, cwd);
  const origin = !saved
    ? 'generated for this run'
    : source.reused
      ? `development key from ${saved}`
      : `development key generated now, saved in ${saved}`;
  return `${origin} (set CALLBACK_API_KEYS to choose one)`;
}

/** Relative to the working directory when inside it, else absolute. */
function shortPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}

/** A Turkish-named withdrawal with a fresh reference: pasting it twice shows a duplicate. */
function curlLine(server: Pick<LocalServer, 'url' | 'apiKey'>): string {
  const fields = {
    status: 'Confirm',
    message: 'Ödeme onaylandı',
    reference: randomUUID(),
  } as const;
  return [
    'curl -i',
    shellQuote(server.url),
    "-H 'content-type: application/json'",
    `-H ${shellQuote(`x-api-key: ${server.apiKey}`)}`,
    `--data-raw ${shellQuote(callbackBody(sampleTransaction(fields), server.apiKey))}`,
  ].join(' ');
}

/** POSIX single quotes; a quote inside becomes `'\''`. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
