import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sharedChromium } from '../../../support/console-browser.js';
import { atPhoneWidth, pageScrollWidth, phoneWidth } from '../../../support/console-pages.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { engines } from '../../../support/engines.js';

// The gateway's worked example B (docs/callback-hash.md, from its integration guide): its key,
// the text it hashed, and the body sent with the names as raw UTF-8.
const key = '3f1c9a7e52b84d0c9e6a1b2d4c8f7e01';
const hashed =
  '{"id":1048577,"username":"deniz.kaya","firstName":"\\u00c7a\\u011fr\\u0131","lastName":"\\u00d6zt\\u00fcrk","amount":250075,"currency":"TRY","type":"Withdrawal","status":"Reject","message":"Hesap do\\u011frulanamad\\u0131","reference":"5b0c2f6e-7d4a-4c1b-9a3e-2f8d6b1c0e94","hash":""}';
const digest = '3e20f227d66c2d34684a1b284f5e909bf8cb2113bea72cf0a83adf6b4c7cf85d';
const wire =
  '{"id":1048577,"username":"deniz.kaya","firstName":"Çağrı","lastName":"Öztürk","amount":250075,"currency":"TRY","type":"Withdrawal","status":"Reject","message":"Hesap doğrulanamadı","reference":"5b0c2f6e-7d4a-4c1b-9a3e-2f8d6b1c0e94","hash":"3e20f227d66c2d34684a1b284f5e909bf8cb2113bea72cf0a83adf6b4c7cf85d"}';

const browser = sharedChromium();
// The view reads no table: one engine is enough.
const console = suiteConsole(engines[0] ?? 'dynalite', { allowActions: false });

/** Every request the page makes, as sent: URL, body and header values. */
function recordRequests(page: Page): string[] {
  const sent: string[] = [];
  page.on('request', (request: Request) => {
    sent.push(request.url(), request.postData() ?? '', ...Object.values(request.headers()));
  });
  return sent;
}

/** Fills the form and submits it with the keyboard only: Tab from the body, Enter on the button. */
async function check(page: Page, body: string, withKey: string) {
  await page.getByLabel('Body, exactly as received').fill(body);
  await page.keyboard.press('Tab');
  await page.keyboard.type(withKey);
  await page.keyboard.press('Tab');
  expect(await page.locator(':focus').textContent()).toBe('Check the hash');
  await page.keyboard.press('Enter');
  const verdict = page.locator('#hash-result #hash-verdict');
  await verdict.waitFor();
  return verdict.textContent();
}

describe('the hash check view', () => {
  it("verifies the spec's worked example and shows the variant and the text hashed", async () => {
    const page = await console.signedIn(browser, '/hash-check');
    const sent = recordRequests(page);
    // Not even a form submitted without the script could carry it.
    expect(await page.getByLabel('API key (stays in this page)').getAttribute('name')).toBeNull();
    expect(await check(page, wire, key)).toBe(
      'Verified: the hash matches as received, non-ASCII as lowercase \\u escapes.',
    );
    expect(await page.locator('#hash-result pre').textContent()).toBe(hashed);
    // The result region announces itself.
    expect(await page.locator('#hash-result').getAttribute('aria-live')).toBe('polite');
    expect(sent.some((text) => text.includes('/hash-check/texts'))).toBe(true);
    expect(sent.filter((text) => text.includes(key))).toEqual([]);
    await page.close();
  });

  it('says none matched with another key, and why, listing each text and its digest', async () => {
    const page = await console.signedIn(browser, '/hash-check');
    const sent = recordRequests(page);
    const wrongKey = '0000000000000000000000000000dead';
    expect(await check(page, wire, wrongKey)).toBe(
      `Not verified: the hash ${digest} matches none of the texts the receiver rebuilds.`,
    );
    await expect
      .poll(() => page.locator('#hash-result').textContent())
      .toContain('Likely causes: another key; a proxy that re-serialized the body;');
    const items = await page.locator('#hash-result ol.candidates li').allTextContents();
    // The raw text, and its escaped forms (lowercase, uppercase): each with its own digest.
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items[0]).toContain('the body as received, "hash" blanked');
    expect(items.some((item) => item.includes(hashed))).toBe(true);
    for (const item of items) expect(item).toMatch(/sha256 [0-9a-f]{64}/);
    // With another key no text hashes to the body's hash.
    expect(items.join('\n')).not.toContain(`sha256 ${digest}`);
    expect(sent.filter((text) => text.includes(wrongKey))).toEqual([]);
    // Readable on a phone: no page-wide horizontal scroll, 64-digit hashes included.
    await atPhoneWidth(page);
    expect(await pageScrollWidth(page)).toBeLessThanOrEqual(phoneWidth);
    await page.close();
  });

  it('explains a body that is not JSON, and a body with no hash', async () => {
    const page = await console.signedIn(browser, '/hash-check');
    await page.getByLabel('Body, exactly as received').fill('{"id":');
    await page.getByLabel('API key (stays in this page)').fill(key);
    await page.getByRole('button', { name: 'Check the hash' }).click();
    await expect
      .poll(() => page.locator('#hash-result [role="alert"]').textContent())
      .toMatch(/^Cannot check this body: the body is not valid JSON: /);
    expect(await check(page, wire.replace(/"hash":"[0-9a-f]+"/, '"hash":""'), key)).toBe(
      'The body carries no hash (absent or empty): nothing to verify.',
    );
    await page.close();
  });

  it('refuses the texts request without the CSRF token with 403', async () => {
    const page = await console.signedIn(browser, '/hash-check');
    const status = await page.evaluate(
      async (body) => (await fetch('/hash-check/texts', { method: 'POST', body })).status,
      wire,
    );
    expect(status).toBe(403);
    await page.close();
  });
});
