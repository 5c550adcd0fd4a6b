import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { Hash, SourceData } from '@smithy/types';
import type { EngineCredentials } from './engine-credentials.js';

/** A request's line and headers, as they reach local mode's engine before its body is read. */
export interface RequestHead {
  readonly method: string;
  /** The request target: path and query. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** A request as it reached local mode's engine, body read whole. */
export interface ReceivedRequest extends RequestHead {
  readonly body: Buffer;
}

/** DynamoDB's own error types, so the SDK raises the exception a user would meet on AWS. */
export type SignatureVerdict =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly type:
        | 'MissingAuthenticationTokenException'
        | 'UnrecognizedClientException'
        | 'InvalidSignatureException';
      readonly message: string;
    };

/** AWS allows 15 minutes; client and engine share this machine's clock, so 5 is plenty. */
export const maxClockSkewMs = 5 * 60_000;

const authorizationPattern =
  /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;
const amzDatePattern = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/**
 * Checks a request's AWS Signature Version 4 against the one pair of credentials local mode's
 * engine answers to, by signing the same request again (smithy's signer, as the SDK uses) and
 * comparing in constant time. Only header-signed requests pass; the signature must cover `host`
 * and `x-amz-date`, be no older or newer than `maxClockSkewMs`, and cover the body as received.
 */
export async function checkSignature(
  request: ReceivedRequest,
  credentials: EngineCredentials,
  now = new Date(),
): Promise<SignatureVerdict> {
  const head = authorizationOf(request, credentials, now);
  if (!head.ok) return head;
  // The signer takes this header as the body's hash: it must be the body's hash.
  const claimed = request.headers['x-amz-content-sha256'];
  if (claimed !== undefined && claimed !== sha256Hex(request.body)) {
    return invalid('x-amz-content-sha256 does not match the body');
  }
  const expected = await signatureOf(request, head.signed, credentials);
  return expected !== undefined && sameText(expected, head.signed.signature)
    ? { ok: true }
    : invalid('The request signature we calculated does not match the signature you provided.');
}

/**
 * Everything {@link checkSignature} checks that needs no body: an Authorization header for the
 * run's access key id, its scope, the headers it must cover, and a fresh `x-amz-date`. Run before
 * the body is read, so a request that cannot pass costs the engine its headers and nothing more.
 */
export function checkAuthorization(
  request: RequestHead,
  credentials: EngineCredentials,
  now = new Date(),
): SignatureVerdict {
  const head = authorizationOf(request, credentials, now);
  return head.ok ? { ok: true } : head;
}

function authorizationOf(
  request: RequestHead,
  credentials: EngineCredentials,
  now: Date,
): Exclude<SignatureVerdict, { ok: true }> | { readonly ok: true; readonly signed: SignedParts } {
  const { authorization } = request.headers;
  if (authorization === undefined) {
    return refused(
      'MissingAuthenticationTokenException',
      'Request is missing Authentication Token',
    );
  }
  const signed = parseAuthorization(authorization);
  if (!signed) return invalid('Malformed AWS4-HMAC-SHA256 authorization');
  if (!sameText(signed.accessKeyId, credentials.accessKeyId)) {
    return refused(
      'UnrecognizedClientException',
      'The security token included in the request is invalid.',
    );
  }
  const problem = scopeProblem(signed, request, now);
  return problem ? invalid(problem) : { ok: true, signed };
}

/** `AWS4-HMAC-SHA256 Credential=<id>/<date>/<region>/<service>/aws4_request, SignedHeaders=…, Signature=…` */
interface SignedParts {
  readonly accessKeyId: string;
  readonly shortDate: string;
  readonly region: string;
  readonly service: string;
  readonly terminator: string;
  readonly signedHeaders: readonly string[];
  readonly signature: string;
}

function parseAuthorization(authorization: string): SignedParts | undefined {
  const match = authorizationPattern.exec(authorization);
  if (!match) return undefined;
  const [, credential = '', signedList = '', signature = ''] = match;
  const [accessKeyId = '', shortDate = '', region = '', service = '', terminator = '', ...rest] =
    credential.split('/');
  if (rest.length > 0) return undefined;
  const signedHeaders = signedList.split(';');
  return { accessKeyId, shortDate, region, service, terminator, signedHeaders, signature };
}

/** What makes a well-formed signature unacceptable before it is even checked, if anything. */
function scopeProblem(signed: SignedParts, request: RequestHead, now: Date) {
  if (signed.service !== 'dynamodb' || signed.terminator !== 'aws4_request' || !signed.region) {
    return 'The credential scope is not for DynamoDB';
  }
  // Without host, a signature would hold for any server; without the date, forever.
  if (!signed.signedHeaders.includes('host') || !signed.signedHeaders.includes('x-amz-date')) {
    return 'The signature must cover host and x-amz-date';
  }
  const date = amzDate(request.headers['x-amz-date']);
  if (date?.toISOString().replaceAll('-', '').slice(0, 8) !== signed.shortDate) {
    return 'X-Amz-Date is missing, malformed or off its credential scope';
  }
  if (Math.abs(now.getTime() - date.getTime()) > maxClockSkewMs) {
    return 'Signature expired: X-Amz-Date is too far from now';
  }
  const missing = signed.signedHeaders.find((name) => request.headers[name] === undefined);
  return missing ? `Signed header ${missing} is missing` : undefined;
}

/** The signature the request would carry if signed with `credentials`, by smithy's signer. */
async function signatureOf(
  request: ReceivedRequest,
  signed: SignedParts,
  credentials: EngineCredentials,
): Promise<string | undefined> {
  const headers: Record<string, string> = {};
  for (const name of signed.signedHeaders) {
    // Present: scopeProblem refused any request missing a header its signature covers.
    const value = request.headers[name] as string | string[];
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const target = new URL(request.url, 'http://engine.invalid');
  const query: Record<string, string[]> = {};
  for (const [name, value] of target.searchParams) query[name] = [...(query[name] ?? []), value];
  const { region } = signed;
  const signer = new SignatureV4({
    credentials,
    region,
    service: 'dynamodb',
    sha256: Sha256,
    applyChecksum: false,
  });
  const resigned = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      // Covered by every signature that gets here (scopeProblem), so present.
      hostname: headers.host as string,
      path: target.pathname,
      query,
      headers,
      body: request.body,
    },
    {
      signingDate: amzDate(request.headers['x-amz-date']) as Date,
      signingRegion: region,
      signableHeaders: new Set(signed.signedHeaders),
    },
  );
  // The signer always sets the header it was asked to compute.
  return /Signature=([0-9a-f]{64})$/.exec(resigned.headers.authorization as string)?.[1];
}

function invalid(message: string) {
  return refused('InvalidSignatureException', message);
}

function refused(type: Exclude<SignatureVerdict, { ok: true }>['type'], message: string) {
  return { ok: false, type, message } as const;
}

/** Constant time for equal lengths; a length says nothing secret here (fixed by the scheme). */
function sameText(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
}

function amzDate(value: string | string[] | undefined): Date | undefined {
  const parts = typeof value === 'string' ? amzDatePattern.exec(value) : null;
  if (!parts) return undefined;
  const [, year, month, day, hour, minute, second] = parts;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function sha256Hex(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}

/**
 * The hash (or HMAC, given a secret) the signer asks for, on node:crypto. The signer passes the
 * secret as a string, then each HMAC's digest as bytes, and hands `update` bytes only; it never
 * resets a hash, so this is a one-shot `Hash`, not a resettable `Checksum`.
 */
class Sha256 implements Hash {
  private readonly hash;
  constructor(secret?: SourceData) {
    // createHmac takes every form of SourceData as a key (an ArrayBuffer too, though its type
    // says otherwise), so the secret is handed over as it came.
    this.hash =
      secret === undefined
        ? createHash('sha256')
        : createHmac('sha256', secret as string | Uint8Array);
  }
  update(data: Uint8Array): void {
    this.hash.update(data);
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}
