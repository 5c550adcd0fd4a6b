import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SourceData } from '@smithy/types';
import { describe, expect, it } from 'vitest';
import { newEngineCredentials } from '../../../../scripts/local/engine/engine-credentials.js';
import {
  checkAuthorization,
  checkSignature,
  maxClockSkewMs,
  type ReceivedRequest,
} from '../../../../scripts/local/engine/signature-check.js';

/**
 * The signature check on its own: requests signed here with smithy's signer (as the SDK signs),
 * then altered the ways a forger or a replaying process would.
 */
const credentials = newEngineCredentials();
const now = new Date('2026-11-25T12:00:00Z');
const body = '{"TableName":"callback-transactions"}';

/** An independent hash for the signer (the check under test brings its own). */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    // The signer passes a string (the secret) or the previous HMAC's bytes.
    const key = secret as string | Uint8Array | undefined;
    this.hash = key === undefined ? createHash('sha256') : createHmac('sha256', key);
  }
  update(data: Uint8Array) {
    this.hash.update(data);
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {}
}

async function signed(
  options: {
    signingDate?: Date;
    unsignableHeaders?: Set<string>;
    extraHeaders?: Record<string, string>;
    signWith?: typeof credentials;
    query?: Record<string, string[]>;
  } = {},
): Promise<ReceivedRequest> {
  const signer = new SignatureV4({
    credentials: options.signWith ?? credentials,
    region: 'us-east-1',
    service: 'dynamodb',
    sha256: NodeSha256,
  });
  const request = await signer.sign(
    {
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 4567,
      path: '/',
      query: options.query ?? {},
      headers: {
        host: '127.0.0.1:4567',
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.Scan',
        ...options.extraHeaders,
      },
      body,
    },
    {
      signingDate: options.signingDate ?? now,
      ...(options.unsignableHeaders ? { unsignableHeaders: options.unsignableHeaders } : {}),
    },
  );
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const search = new URLSearchParams(
    Object.entries(options.query ?? {}).flatMap(([name, values]) =>
      values.map((v): [string, string] => [name, v]),
    ),
  ).toString();
  return { method: 'POST', url: search ? `/?${search}` : '/', headers, body: Buffer.from(body) };
}

describe('checkSignature', () => {
  it('accepts a request signed with the run credentials', async () => {
    expect(await checkSignature(await signed(), credentials, now)).toEqual({ ok: true });
  });

  it('refuses the same request with a body changed after signing', async () => {
    const request = await signed();

    const verdict = await checkSignature(
      { ...request, body: Buffer.from('{"TableName":"other"}') },
      credentials,
      now,
    );

    expect(verdict).toMatchObject({ ok: false, type: 'InvalidSignatureException' });
  });

  it('refuses a signed header changed after signing (another operation)', async () => {
    const request = await signed();
    const headers = { ...request.headers, 'x-amz-target': 'DynamoDB_20120810.DeleteTable' };

    const verdict = await checkSignature({ ...request, headers }, credentials, now);

    expect(verdict).toMatchObject({ ok: false, type: 'InvalidSignatureException' });
  });

  it('refuses an x-amz-content-sha256 that is not the hash of the body', async () => {
    const request = await signed({ extraHeaders: { 'x-amz-content-sha256': 'e'.repeat(64) } });

    const verdict = await checkSignature(request, credentials, now);

    expect(verdict).toMatchObject({
      ok: false,
      message: expect.stringMatching(/does not match the body/),
    });
  });

  it('refuses a signature older or newer than the allowed clock skew', async () => {
    const old = await signed({ signingDate: new Date(now.getTime() - maxClockSkewMs - 1_000) });
    const future = await signed({ signingDate: new Date(now.getTime() + maxClockSkewMs + 1_000) });
    const recent = await signed({ signingDate: new Date(now.getTime() - maxClockSkewMs + 1_000) });

    expect(await checkSignature(old, credentials, now)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/expired/),
    });
    expect(await checkSignature(future, credentials, now)).toMatchObject({ ok: false });
    expect(await checkSignature(recent, credentials, now)).toEqual({ ok: true });
  });

  it('refuses a signature that leaves out host', async () => {
    const request = await signed({ unsignableHeaders: new Set(['host']) });

    const verdict = await checkSignature(request, credentials, now);

    expect(request.headers.authorization).not.toMatch(/SignedHeaders=[^,]*host/);
    expect(verdict).toMatchObject({
      ok: false,
      message: 'The signature must cover host and x-amz-date',
    });
  });

  it('refuses other credentials, naming no secret in its answer', async () => {
    const other = newEngineCredentials();
    const verdict = await checkSignature(await signed({ signWith: other }), credentials, now);

    expect(verdict).toMatchObject({ ok: false, type: 'UnrecognizedClientException' });
    expect(JSON.stringify(verdict)).not.toContain(credentials.accessKeyId);
    expect(JSON.stringify(verdict)).not.toContain(other.accessKeyId);
  });

  it('refuses a query-string (presigned) signature: only the Authorization header counts', async () => {
    const request = await signed();
    const { authorization: _, ...headers } = request.headers;

    const verdict = await checkSignature(
      { ...request, url: '/?X-Amz-Algorithm=AWS4-HMAC-SHA256', headers },
      credentials,
      now,
    );

    expect(verdict).toMatchObject({ ok: false, type: 'MissingAuthenticationTokenException' });
  });
});

describe('checkAuthorization (before the body is read)', () => {
  it('passes the run credentials whatever the body, which only checkSignature can judge', async () => {
    const { body: _, ...head } = await signed();

    expect(checkAuthorization(head, credentials, now)).toEqual({ ok: true });
  });

  it('refuses what the headers alone condemn: no Authorization, another key id, a stale date', async () => {
    const request = await signed();
    const { authorization: _, ...unsigned } = request.headers;
    const other = await signed({ signWith: newEngineCredentials() });
    const stale = await signed({ signingDate: new Date(now.getTime() - maxClockSkewMs - 1_000) });

    expect(checkAuthorization({ ...request, headers: unsigned }, credentials, now)).toMatchObject({
      type: 'MissingAuthenticationTokenException',
    });
    expect(checkAuthorization(other, credentials, now)).toMatchObject({
      type: 'UnrecognizedClientException',
    });
    expect(checkAuthorization(stale, credentials, now)).toMatchObject({
      type: 'InvalidSignatureException',
      message: expect.stringMatching(/expired/),
    });
  });
});

describe('checkAuthorization refuses a malformed or misdirected Authorization', () => {
  const withAuthorization = async (edit: (authorization: string) => string) => {
    const { body: _, ...head } = await signed();
    const authorization = edit(head.headers.authorization as string);
    return { ...head, headers: { ...head.headers, authorization } };
  };

  it.each([
    ['another scheme', (a: string) => a.replace('AWS4-HMAC-SHA256', 'AWS4-HMAC-SHA512')],
    ['a signature that is not 64 hex digits', (a: string) => a.slice(0, -1)],
    ['no SignedHeaders', (a: string) => a.replace(/SignedHeaders=[^,]*, /, '')],
    [
      'a credential with a sixth part',
      (a: string) => a.replace('/aws4_request', '/aws4_request/x'),
    ],
  ])('%s: InvalidSignatureException, malformed', async (_, edit) => {
    const request = await withAuthorization(edit);

    expect(checkAuthorization(request, credentials, now)).toEqual({
      ok: false,
      type: 'InvalidSignatureException',
      message: 'Malformed AWS4-HMAC-SHA256 authorization',
    });
  });

  it.each([
    ['another service', (a: string) => a.replace('/dynamodb/', '/s3/')],
    ['another terminator', (a: string) => a.replace('/aws4_request', '/aws5_request')],
    ['no region', (a: string) => a.replace('/us-east-1/', '//')],
  ])('%s in the credential scope: refused, not for DynamoDB', async (_, edit) => {
    const request = await withAuthorization(edit);

    expect(checkAuthorization(request, credentials, now)).toMatchObject({
      ok: false,
      type: 'InvalidSignatureException',
      message: 'The credential scope is not for DynamoDB',
    });
  });

  it('refuses a signature whose scope date is not the X-Amz-Date', async () => {
    const request = await withAuthorization((a) => a.replace('/20261125/', '/20261124/'));

    expect(checkAuthorization(request, credentials, now)).toMatchObject({
      ok: false,
      message: 'X-Amz-Date is missing, malformed or off its credential scope',
    });
  });

  it.each([
    ['missing', undefined],
    ['in another format', '2026-11-25T12:00:00Z'],
    ['an impossible date', '20261325T120000Z'],
  ])('refuses an X-Amz-Date %s', async (_, date) => {
    const { body: _body, ...head } = await signed();
    const { 'x-amz-date': _date, ...others } = head.headers;
    const headers = date === undefined ? others : { ...others, 'x-amz-date': date };

    expect(checkAuthorization({ ...head, headers }, credentials, now)).toMatchObject({
      ok: false,
      type: 'InvalidSignatureException',
      message: 'X-Amz-Date is missing, malformed or off its credential scope',
    });
  });

  it('refuses a request missing a header its signature covers, naming the header', async () => {
    const { body: _, ...head } = await signed();
    const { 'x-amz-target': _target, ...headers } = head.headers;

    expect(head.headers.authorization).toMatch(/SignedHeaders=[^,]*x-amz-target/);
    expect(checkAuthorization({ ...head, headers }, credentials, now)).toEqual({
      ok: false,
      type: 'InvalidSignatureException',
      message: 'Signed header x-amz-target is missing',
    });
  });
});

describe('checkSignature covers the query and repeated headers', () => {
  it('accepts the query it signed, repeated names included, and refuses a changed one', async () => {
    const request = await signed({ query: { a: ['1', '2'], b: ['x'] } });

    expect(request.url).toBe('/?a=1&a=2&b=x');
    expect(await checkSignature(request, credentials, now)).toEqual({ ok: true });
    expect(
      await checkSignature({ ...request, url: '/?a=1&a=3&b=x' }, credentials, now),
    ).toMatchObject({ ok: false, type: 'InvalidSignatureException' });
  });

  it('checks a header Node gives as a list (set-cookie) as the values the client signed', async () => {
    const request = await signed({ extraHeaders: { 'set-cookie': 'a=1,b=2' } });
    const asList = (values: string[]) => ({
      ...request,
      headers: { ...request.headers, 'set-cookie': values },
    });

    expect(request.headers.authorization).toMatch(/SignedHeaders=[^,]*set-cookie/);
    expect(await checkSignature(asList(['a=1', 'b=2']), credentials, now)).toEqual({ ok: true });
    expect(await checkSignature(asList(['a=1', 'b=3']), credentials, now)).toMatchObject({
      ok: false,
      type: 'InvalidSignatureException',
    });
  });
});
