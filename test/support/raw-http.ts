import { request } from 'node:http';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One HTTP request with exactly the headers given (fetch() would refuse to set `Host` or
 * `Sec-Fetch-Site`): what a hostile client or a rebinding page can send, byte for byte.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers ?? {}, timeout: 10_000 },
      (answer) => {
        let body = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => {
          body += chunk;
        });
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }),
        );
        answer.on('error', reject);
      },
    );
    sent.on('timeout', () => sent.destroy(new Error(`no answer from ${url} in 10 s`)));
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/** The `name=value` of a Set-Cookie header, for sending it back. */
export function cookieOf(answer: RawAnswer): string | undefined {
  const set = answer.headers['set-cookie'];
  return (Array.isArray(set) ? set[0] : set)?.split(';')[0];
}
