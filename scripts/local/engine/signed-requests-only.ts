import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { EngineCredentials } from './engine-credentials.js';
import { checkSignature } from './signature-check.js';

/** dynalite's own limit on a request body. */
const maxBodyBytes = 16 * 1024 * 1024;

/**
 * Puts a SigV4 check in front of dynalite's request handler, on dynalite's own server: the
 * handler is taken off the server and called only for a request signed with `credentials`, so
 * nothing reaches the engine any other way. dynalite checks no signature, and answers any
 * browser origin with `Access-Control-Allow-Origin: *`; a request that carries an `Origin`
 * (every cross-origin fetch and preflight does) is refused before anything else, so a web page
 * in the owner's browser gets no allowance and no data.
 */
export function signedRequestsOnly(server: Server, credentials: EngineCredentials): void {
  const [engine] = server.listeners('request') as RequestListener[];
  if (!engine) throw new Error('dynalite registered no request handler');
  server.removeAllListeners('request');
  server.on('request', (request, response) => {
    admit(request, response, engine, credentials).catch(() => response.destroy());
  });
}

async function admit(
  request: IncomingMessage,
  response: ServerResponse,
  engine: RequestListener,
  credentials: EngineCredentials,
): Promise<void> {
  if (request.headers.origin !== undefined || request.method === 'OPTIONS') {
    request.resume();
    return refuse(response, 403, 'AccessDeniedException', 'Browsers are not served here');
  }
  const body = await readBody(request);
  if (!body) return refuse(response, 413, 'RequestEntityTooLarge', 'Request body too large');
  const [method, url] = [request.method ?? 'GET', request.url ?? '/'];
  const verdict = await checkSignature(
    { method, url, headers: request.headers, body },
    credentials,
  );
  if (!verdict.ok) return refuse(response, 400, verdict.type, verdict.message);
  // dynalite reads the body from the request stream: it gets the bytes that were checked.
  const checked = Object.assign(Readable.from(body.length > 0 ? [body] : []), {
    method,
    url,
    headers: request.headers,
  });
  engine(checked as unknown as IncomingMessage, response);
}

/** DynamoDB's error shape, so the SDK raises the named exception. No CORS header, ever. */
function refuse(response: ServerResponse, status: number, type: string, message: string): void {
  const body = JSON.stringify({ __type: `com.amazon.coral.service#${type}`, message });
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/** The whole body, or undefined past dynalite's limit (the rest is drained, not kept). */
async function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBodyBytes) chunks.push(chunk);
  }
  return size > maxBodyBytes ? undefined : Buffer.concat(chunks);
}
