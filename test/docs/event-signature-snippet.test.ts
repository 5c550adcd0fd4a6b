import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import {
  newSigningSecret,
  signatureHeaders,
} from '../../scripts/operations/events/webhook-signature.js';
import { repoRoot } from '../support/local-cli.js';

type Verify = (secret: string, headers: object, rawBody: string) => boolean;

it("docs/events.md's verification snippet accepts a forwarded event and refuses a changed one", async () => {
  const doc = await readFile(join(repoRoot, 'docs/events.md'), 'utf8');
  const snippet = /```js\n(import \{ createHmac[\s\S]*?)```/.exec(doc)?.[1];
  expect(snippet).toBeDefined();
  const dir = await mkdtemp(join(tmpdir(), 'snippet-'));
  try {
    const file = join(dir, 'verify.mjs');
    await writeFile(file, snippet as string);
    const { verifyForwardedEvent } = (await import(pathToFileURL(file).href)) as {
      verifyForwardedEvent: Verify;
    };
    const secret = newSigningSecret();
    const body = '{"version":"0","id":"e1","detail":{"id":"9007199254740993"}}';
    const headers = signatureHeaders(secret, 'e1', body);

    expect(verifyForwardedEvent(secret, headers, body)).toBe(true);
    expect(verifyForwardedEvent(secret, headers, body.replace('993', '992'))).toBe(false);
    expect(verifyForwardedEvent(newSigningSecret(), headers, body)).toBe(false);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
