import type { Context } from 'hono';
import { html } from 'hono/html';

/** The flag that turns a deployed-mode console's actions on. */
const allowActions = 'npm run console -- --allow-actions';

/** In place of an action's form on a read-only console: why it is missing and how to get it. */
export function actionsOffNotice(action: string) {
  return html`<p class="notice" role="note">Actions are off: this console is read-only, so you can
review but not ${action}. To act, start it with <code>${allowActions}</code>.</p>`;
}

/**
 * A POST to an action on a read-only console: only a forged or stale form gets here, since the
 * page shows none. Refused before anything is read or written.
 */
export function refuseReadOnly(c: Context) {
  return c.text(
    `Refused: this console is read-only; nothing was written. Start it with ${allowActions}.`,
    403,
  );
}
