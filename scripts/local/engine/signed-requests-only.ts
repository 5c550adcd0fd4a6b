import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import {
  type ConnectionLimits,
  engineConnectionLimits,
  limitConnections,
} from './connection-limits.js';
import type { EngineCredentials } from './engine-credentials.js';
import { checkAuthorization, checkSignature } from './signature-check.js';

/** dynalite's own limit on a request body. */
export const maxBodyBytes = 16 * 1024 * 1024;

/**
 * A client sending its headers slowly holds a connection: Node's default allows it 60 s, checked
 * every 30 s. The check's interval is a constructor option (dynalite builds the server), read
 * from the server when it starts listening: set here, before.
 */
const headersTimeoutMs = 10_000;
const timeoutCheckMs = 1_000;

/**
 * Puts a SigV4 check in front of dynalite's request handler, on dynalite's own server: the
 * handler is taken off the server and called only for a request signed with `credentials`, so
 * nothing reaches the engine any other way. dynalite checks no signature, and answers any
 * browser origin with `Access-Control-Allow-Origin: *`; a request that carries an `Origin`
 * (every cross-origin fetch and preflight does) is refused before anything else, so a web page
 * in the owner's browser gets no allowance and no data.
 *
 * Nothing a stranger sends is held: connections are bounded (connection-limits.ts), and a
 * request's body is read only once its headers pass every check that needs no body (the access
 * key id, scope, covered headers, date) and its declared length fits; a refused request is
 * answered and its connection closed with the rest of its body unread.
 */
export function signedRequestsOnly(
  server: Server,
  credentials: EngineCredentials,
  limits: ConnectionLimits = engineConnectionLimits,
): void {
  const [engine] = server.listeners('request') as RequestListener[];
  if (!engine) throw new Error('dynalite registered no request handler');
  server.removeAllListeners('request');
  limitConnections(server, limits);
  server.headersTimeout = headersTimeoutMs;
  Object.assign(server, { connectionsCheckingInterval: timeoutCheckMs });
  const admitting = (expectsContinue: boolean): RequestListener => {
    return (request, response) => {
      const admitted = admit(request, response, engine, credentials, expectsContinue);
      admitted.catch(() => response.destroy());
    };
  };
  server.on('request', admitting(false));
  // Node would send `100 Continue` at once; here the go-ahead waits for the headers to pass.
  server.on('checkContinue', admitting(true));
}

async function admit(
  request: IncomingMessage,
  response: ServerResponse,
  engine: RequestListener,
  credentials: EngineCredentials,
  expectsContinue: boolean,
): Promise<void> {
  if (request.headers.origin !== undefined || request.method === 'OPTIONS') {
    return refuse(response, 403, 'AccessDeniedException', 'Browsers are not served here');
  }
  // An http.Server's request always has both: its parser reads them from the request line.
  const [method, url, headers] = [request.method as string, request.url as string, request.headers];
  // A chunked body declares no length: it is counted as it arrives instead (readBody).
  if (Number(headers['content-length'] ?? 0) > maxBodyBytes) return tooLarge(response);
  const head = checkAuthorization({ method, url, headers }, credentials);
  if (!head.ok) return refuse(response, 400, head.type, head.message);
  if (expectsContinue) response.writeContinue();
  const body = await readBody(request);
  if (!body) return tooLarge(response);
  const verdict = await checkSignature({ method, url, headers, body }, credentials);
  if (!verdict.ok) return refuse(response, 400, verdict.type, verdict.message);
  // dynalite reads the body from the request stream: it gets the bytes that were checked.
  const checked = Object.assign(Readable.from(body.length > 0 ? [body] : []), {
    method,
    url,
    headers,
  });
  engine(checked as unknown as IncomingMessage, response);
}

function tooLarge(response: ServerResponse): void {
  refuse(response, 413, 'RequestEntityTooLarge', 'Request body too large');
}

/**
 * DynamoDB's error shape, so the SDK raises the named exception. No CORS header, ever. The
 * connection is closed once the answer is sent, before Node would read (and drop) the rest of
 * the body: a refused client gets nothing more from the engine, not even its bytes read.
 */
function refuse(response: ServerResponse, status: number, type: string, message: string): void {
  const body = JSON.stringify({ __type: `com.amazon.coral.service#${type}`, message });
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  // Taken now: Node detaches the socket from the response before this callback runs.
  const { socket } = response;
  response.end(body, () => socket?.destroy());
}

/** The whole body, or undefined as soon as it passes dynalite's limit (the rest is not read). */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) {
        chunks.push(chunk);
        return;
      }
      request.off('data', take);
      request.pause();
      resolve(undefined);
    };
    request.on('data', take);
    request.once('end', () => resolve(Buffer.concat(chunks, size)));
    request.once('error', reject);
    request.once('close', () => reject(new Error('the client went away mid-body')));
  });
}
