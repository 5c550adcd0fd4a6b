import { randomUUID } from 'node:crypto';
import { isAbsolute, relative } from 'node:path';
import { callbackBody, sampleTransaction } from '../shared/gateway-callback.js';
import type { LocalServer } from './local-server.js';

export interface BannerSetup {
  readonly hashMode: string;
  /** Bound off loopback: the key is masked, and no curl line carries it. */
  readonly exposed: boolean;
  /** `DATA_DIR` as given, when given: the other tools need it too to find this server. */
  readonly dataDirSetting?: string;
}

/**
 * What `npm start` prints once it answers: where to send callbacks, with which key, where the
 * data lives, and one curl line that records a real (signed) callback when pasted. The commands
 * it suggests are right for this setup (data folder, key source, in memory, off loopback).
 */
export function banner(server: LocalServer, setup: BannerSetup, cwd = process.cwd()): string {
  const lines = [
    'Callback receiver running in local mode (the Lambda handler behind a local API Gateway)',
    '',
    `  URL        POST ${server.url}`,
    `  API key    ${setup.exposed ? mask(server.apiKey) : server.apiKey}`,
    `             ${describeKeySource(server, cwd)}`,
    `  Data       ${describeData(server, cwd)}`,
    `  Table      ${server.tableName}${server.tableCreated ? ' (created now)' : ''}`,
    `  Hash mode  ${setup.hashMode}`,
    '',
    ...(setup.exposed ? [] : ['Record a callback:', `  ${curlLine(server)}`, '']),
    'In another shell:',
    ...nextSteps(server, setup),
    '',
    'Ctrl-C stops the server after the callbacks in flight are recorded.',
    '',
  ];
  return lines.join('\n');
}

/**
 * The simulator and the query tool find a server on its data folder (and its saved dev key) by
 * themselves, given the same `DATA_DIR`; anything they cannot find is spelled out.
 */
function nextSteps(server: LocalServer, setup: BannerSetup): string[] {
  const inMemory = server.data.kind === 'memory';
  const savedKey = server.keySource.kind === 'generated' && server.keySource.file !== undefined;
  const key = setup.exposed ? '"$CALLBACK_API_KEYS"' : shellQuote(server.apiKey);
  const simulateTarget = [
    ...(inMemory ? [`--url ${server.url}`] : []),
    ...(savedKey ? [] : [`--key ${key}`]),
  ];
  const queryTarget =
    inMemory || !server.engine.embedded ? [`--endpoint ${server.engine.endpoint}`] : [];
  const env =
    setup.dataDirSetting && !inMemory ? `DATA_DIR=${shellQuote(setup.dataDirSetting)} ` : '';
  return [
    `  ${env}npm run simulate -- ${[...simulateTarget, '--count 200 --duplicates 0.1'].join(' ')}`,
    `  ${env}npm run query -- ${[...queryTarget, `list --since ${new Date().toISOString().slice(0, 10)}`].join(' ')}`,
  ];
}

/** Enough to recognise the key, not to use it. */
function mask(key: string): string {
  return `${key.slice(0, Math.min(4, Math.floor(key.length / 4)))}… (masked: bound off loopback)`;
}

function describeKeySource(server: LocalServer, cwd: string): string {
  const source = server.keySource;
  if (source.kind === 'environment') {
    return source.count > 1
      ? `from CALLBACK_API_KEYS (${source.count} keys accepted; the first is shown)`
      : 'from CALLBACK_API_KEYS';
  }
  if (!source.file) return 'generated for this run (set CALLBACK_API_KEYS to choose one)';
  const where = shortPath(source.file, cwd);
  return source.reused
    ? `development key from ${where} (set CALLBACK_API_KEYS to choose one)`
    : `development key generated now, saved in ${where} (set CALLBACK_API_KEYS to choose one)`;
}

function describeData(server: LocalServer, cwd: string): string {
  if (!server.engine.embedded)
    return `DynamoDB at ${server.engine.endpoint} (AWS_ENDPOINT_URL_DYNAMODB)`;
  if (server.data.kind === 'memory') {
    return `in memory, gone when the server stops (embedded DynamoDB at ${server.engine.endpoint})`;
  }
  return `${shortPath(server.data.dir, cwd)}/ (embedded DynamoDB, kept across restarts)`;
}

/** Relative to the working directory when inside it, else absolute. */
function shortPath(path: string, cwd: string): string {
  const inside = relative(cwd, path);
  return inside === '' ? '.' : inside.startsWith('..') || isAbsolute(inside) ? path : inside;
}

/** A Turkish-named withdrawal with a fresh reference: pasting it twice shows a duplicate. */
export function curlLine(server: Pick<LocalServer, 'url' | 'apiKey'>): string {
  const body = callbackBody(
    sampleTransaction({ status: 'Confirm', message: 'Ödeme onaylandı', reference: randomUUID() }),
    server.apiKey,
  );
  return [
    'curl -i',
    shellQuote(server.url),
    "-H 'content-type: application/json'",
    `-H ${shellQuote(`x-api-key: ${server.apiKey}`)}`,
    `--data-raw ${shellQuote(body)}`,
  ].join(' ');
}

/** POSIX single quotes; a quote inside becomes `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
