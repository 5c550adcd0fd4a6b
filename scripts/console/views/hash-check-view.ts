import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html } from 'hono/html';
import { maxBodyBytes } from '../../../lambda/http/read-body.js';
import { UsageError } from '../../cli/cli-errors.js';
import { unsafeCharacter } from '../../cli/terminal-text.js';
import { explainHash, hashVerdict } from '../../operations/hash-explanation.js';
import { ownAsset } from '../assets.js';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { csrfField, page } from '../html/layout.js';

ownAsset('hash-check.js');

/**
 * Hash check: the explanation of `npm run verify`, with the key kept in the page. The hash is
 * `SHA-256(text + key)` (docs/callback-hash.md), so the key-free part splits off cleanly: the
 * server turns the pasted body into the texts the receiver would hash (POST /hash-check/texts,
 * the body only), and the page's script appends the key to each, hashes them with Web Crypto
 * and compares. The key field has no `name`, so not even a form submitted without the script
 * carries it.
 */
export function hashCheckView(app: Hono<ConsoleEnv>, console: ConsoleContext): void {
  const show = (c: Context<ConsoleEnv>, notice?: string) =>
    page(c, console, {
      title: 'Hash check',
      section: '/hash-check',
      body: checkForm(c, notice),
      scripts: ['hash-check.js'],
    });

  app.get('/hash-check', (c) => show(c));

  // The form submitted without the page's script (it never carries the key).
  app.post('/hash-check', (c) =>
    show(
      c,
      'The check runs in this page’s script, which did not run: enable JavaScript for this page. Your key was not sent.',
    ),
  );

  app.post(
    '/hash-check/texts',
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) =>
        c.json(
          { error: `The body is larger than the receiver accepts (${maxBodyBytes} bytes).` },
          413,
        ),
    }),
    async (c) => {
      const body = await c.req.text();
      try {
        const { received, candidates } = explainHash(body);
        return c.json({
          ...(received !== undefined && { received }),
          candidates: candidates.map(({ text, form }) => ({
            form,
            text,
            verified: hashVerdict.verified(form),
          })),
          verdict: {
            noHash: hashVerdict.noHash,
            notVerified: received === undefined ? '' : hashVerdict.notVerified(received),
            likelyCauses: hashVerdict.likelyCauses.join(' '),
          },
          // The characters the page shows as visible U+XXXX marks, as everywhere else.
          unsafe: unsafeCharacter.source,
        });
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        return c.json({ error: `Cannot check this body: ${error.message}.` }, 400);
      }
    },
  );
}

function checkForm(c: Context<ConsoleEnv>, notice?: string) {
  return html`<p>Paste a callback body exactly as received and the API key it was sent with. The page
shows the texts the receiver hashes and which one matches: the same explanation as
<code>npm run verify</code>. <strong>The key never leaves this page</strong>: the hash is computed
by your browser.</p>
${notice ? html`<p class="notice error" role="alert">${notice}</p>` : ''}
<form id="hash-check-form" class="stacked" method="post" action="/hash-check">
${csrfField(c)}
<label for="hash-body">Body, exactly as received</label>
<textarea id="hash-body" name="body" rows="10" required spellcheck="false"></textarea>
<label for="hash-key">API key (stays in this page)</label>
<input id="hash-key" type="password" autocomplete="off" spellcheck="false" required>
<p><button type="submit">Check the hash</button></p>
</form>
<div id="hash-result" class="live" aria-live="polite"></div>`;
}
