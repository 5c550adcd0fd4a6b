import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { userInfo } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { operatorIdentity } from '../../../../scripts/operations/settle/operator-identity.js';
import { stubAwsEnvironment } from '../../../support/aws-environment.js';

/**
 * STS as an HTTP service answering GetCallerIdentity in its query protocol: there is no local
 * engine for it, and with this the SDK client runs as it would against AWS.
 */
const state = {
  arn: 'arn:aws:sts::123456789012:assumed-role/Operators/ops-a' as string | undefined,
};
let server: Server;
let endpoint: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const arn = state.arn === undefined ? '' : `<Arn>${state.arn}</Arn>`;
      response
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          '<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">' +
            `<GetCallerIdentityResult>${arn}<UserId>AROAEXAMPLE:ops-a</UserId>` +
            '<Account>123456789012</Account></GetCallerIdentityResult>' +
            '<ResponseMetadata><RequestId>req-1</RequestId></ResponseMetadata>' +
            '</GetCallerIdentityResponse>',
        );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
afterEach(() => vi.unstubAllEnvs());

describe('who a decision is recorded as', () => {
  it('against local mode, the OS user', async () => {
    expect(await operatorIdentity({ aws: false })).toBe(`local:${userInfo().username}`);
  });

  it('against AWS, the IAM ARN the credentials belong to, never a name the operator types', async () => {
    stubAwsEnvironment();
    vi.stubEnv('AWS_ENDPOINT_URL_STS', endpoint);
    state.arn = 'arn:aws:sts::123456789012:assumed-role/Operators/ops-a';

    expect(await operatorIdentity({ aws: true })).toBe(
      'arn:aws:sts::123456789012:assumed-role/Operators/ops-a',
    );
  });

  it('against AWS, an identity without an ARN is refused rather than recorded blank', async () => {
    stubAwsEnvironment();
    vi.stubEnv('AWS_ENDPOINT_URL_STS', endpoint);
    state.arn = undefined;

    await expect(operatorIdentity({ aws: true })).rejects.toThrow(
      'STS GetCallerIdentity returned no ARN',
    );
  });
});

describe('who a decision is recorded as, where the STS client is not installed', () => {
  it('says what to install before anything is written', async () => {
    vi.resetModules();
    vi.doMock('@aws-sdk/client-sts', () => {
      throw new Error("Cannot find package '@aws-sdk/client-sts'");
    });
    try {
      const fresh = await import('../../../../scripts/operations/settle/operator-identity.js');
      await expect(fresh.operatorIdentity({ aws: true })).rejects.toThrow(
        /needs @aws-sdk\/client-sts; it is not installed here \(npm install it, then run again\)/,
      );
    } finally {
      vi.doUnmock('@aws-sdk/client-sts');
    }
  });
});
