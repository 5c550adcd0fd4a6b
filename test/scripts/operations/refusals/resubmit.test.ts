import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { explainNetworkFailure } from '../../../../scripts/gateway/delivery-failure.js';
import { answerText, resubmitRefusal } from '../../../../scripts/operations/refusals/resubmit.js';
import type { KeptRefusal } from '../../../../scripts/table/refusal-item.js';

const body = Buffer.from('{"reference":"ref-1","amount":1}');
const refusal = {
  digest: 'ab'.repeat(32),
  body: new Uint8Array(body),
  bodyBytes: body.length,
  bodyKept: 'whole',
  headers: { 'Content-Type': 'application/json; charset=utf-8' },
  status: 403,
  problem: 'hash-missing',
} as unknown as KeptRefusal;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A receiver stand-in that records what it was sent and answers with `answer`. */
async function receiver(
  answer: (
    request: IncomingMessage,
    sent: Buffer,
  ) => [number, Record<string, string>, string] | undefined,
) {
  const seen: { headers: IncomingMessage['headers']; body: Buffer }[] = [];
  server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const sent = Buffer.concat(chunks);
    seen.push({ headers: request.headers, body: sent });
    const reply = answer(request, sent);
    if (!reply) return; // never answers
    const [status, headers, text] = reply;
    response.writeHead(status, headers).end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, seen };
}

describe('resubmitRefusal', () => {
  it('sends the kept bytes with the kept Content-Type and the key, and reads the outcome header', async () => {
    const { url, seen } = await receiver(() => [204, { 'x-callback-outcome': 'recorded' }, '']);

    const answer = await resubmitRefusal(refusal, { url, apiKey: 'key-1', timeoutMs: 5_000 });

    expect(answer).toEqual({ status: 204, outcome: 'recorded' });
    expect(answerText(answer)).toBe('204 recorded');
    expect(seen[0]?.body.equals(body)).toBe(true);
    expect(seen[0]?.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(seen[0]?.headers['x-api-key']).toBe('key-1');
  });

  it("reads a refusal's problem title and detail, and takes another Content-Type when given", async () => {
    const problem = JSON.stringify({
      title: 'Validation failed',
      detail: 'currency: not ISO 4217',
    });
    const { url, seen } = await receiver(() => [
      422,
      { 'content-type': 'application/problem+json' },
      problem,
    ]);

    const answer = await resubmitRefusal(refusal, {
      url,
      apiKey: 'key-1',
      contentType: 'application/json',
      timeoutMs: 5_000,
    });

    expect(answerText(answer)).toBe('422 Validation failed currency: not ISO 4217');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('gives up after timeoutMs with a TimeoutError the CLI and the console explain', async () => {
    const { url } = await receiver(() => undefined);

    const error = await resubmitRefusal(refusal, { url, apiKey: 'key-1', timeoutMs: 200 }).catch(
      (thrown: unknown) => thrown,
    );

    expect((error as Error).name).toBe('TimeoutError');
    expect(explainNetworkFailure(error, url, 200)).toMatch(
      /^no answer from 127\.0\.0\.1:\d+ within 200 ms/,
    );
  });
  it('sends JSON when no Content-Type was kept, and reads a page that is not problem JSON by its status alone', async () => {
    const { url, seen } = await receiver(() => [
      502,
      { 'content-type': 'text/html' },
      '<html>Bad gateway</html>',
    ]);

    const answer = await resubmitRefusal(
      { ...refusal, headers: { 'x-other': '1' } },
      { url, apiKey: 'key-1', timeoutMs: 5_000 },
    );

    expect(answer).toEqual({ status: 502 });
    expect(answerText(answer)).toBe('502');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
  });

  it('leaves out a title or detail that is not text', async () => {
    const { url } = await receiver(() => [
      400,
      { 'content-type': 'application/problem+json' },
      JSON.stringify({ title: 42, detail: ['not', 'text'] }),
    ]);

    expect(await resubmitRefusal(refusal, { url, apiKey: 'key-1', timeoutMs: 5_000 })).toEqual({
      status: 400,
    });
  });
});
