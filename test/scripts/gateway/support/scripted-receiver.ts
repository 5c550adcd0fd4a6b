import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A receiver that answers from a script, one answer per request (the last one repeats), or
 * never answers at all (`hang`).
 */
export async function scriptedReceiver(answers: readonly ScriptedAnswer[] | 'hang') {
  let requests = 0;
  const keys: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    keys.push(request.headers['x-api-key'] as string | undefined);
    const answer = answers === 'hang' ? undefined : answers[Math.min(requests, answers.length - 1)];
    requests++;
    request.resume();
    if (!answer) return;
    response.writeHead(answer.status, answer.headers ?? {});
    response.end(answer.body ?? '');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  /** `keys()`: the x-api-key of each request, in order of arrival. */
  return { server, url, requests: () => requests, keys: () => keys };
}
