import type { Context } from 'hono';
import { html } from 'hono/html';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { csrfFieldName } from '../security/same-origin-post.js';
import { shown } from './shown-text.js';
// Registers relative-time.js, which every page loads.
import './times.js';

/** The views, in the navigation's order. */
export const sections = [
  { path: '/transactions', title: 'Transactions' },
  { path: '/conflicts', title: 'Conflicts' },
  { path: '/refusals', title: 'Refusals' },
  { path: '/reconcile', title: 'Reconcile' },
  { path: '/activity', title: 'Activity' },
  { path: '/hash-check', title: 'Hash check' },
] as const;

export type SectionPath = (typeof sections)[number]['path'];

interface PageParts {
  readonly title: string;
  readonly section: SectionPath;
  readonly body: unknown;
  /** Extra scripts of this view, served from /assets/. */
  readonly scripts?: readonly string[];
  readonly styles?: readonly string[];
}

/**
 * Every page: server-rendered, scripts and styles only from the console itself (CSP
 * `default-src 'self'`), htmx told not to evaluate anything or inject inline styles.
 */
export function page(c: Context<ConsoleEnv>, console: ConsoleContext, parts: PageParts) {
  const htmxConfig = JSON.stringify({
    includeIndicatorStyles: false,
    allowEval: false,
    allowScriptTags: false,
    selfRequestsOnly: true,
    historyCacheSize: 0,
  });
  const mode = console.mode === 'local' ? 'Local mode' : 'Deployed';
  const actions = console.allowActions ? '' : ' · read-only';
  return c.html(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content="${htmxConfig}">
<meta name="csrf-token" content="${c.get('session').csrfToken}">
<title>${parts.title} · Callback console</title>
<link rel="stylesheet" href="/assets/console.css">
${(parts.styles ?? []).map((href) => html`<link rel="stylesheet" href="/assets/${href}">`)}
<script src="/assets/htmx.min.js" defer></script>
<script src="/assets/console.js" defer></script>
<script src="/assets/relative-time.js" defer></script>
${(parts.scripts ?? []).map((src) => html`<script src="/assets/${src}" defer></script>`)}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<p class="brand">Callback console <span class="where">${mode}: ${shown(console.tables.description)}${actions}</span></p>
<nav aria-label="Views"><ul>
${sections.map(
  (s) =>
    html`<li><a href="${s.path}"${s.path === parts.section ? html` aria-current="page"` : ''}>${s.title}</a></li>`,
)}
</ul></nav>
</header>
<main id="main" tabindex="-1">
<h1>${parts.title}</h1>
${parts.body}
</main>
</body>
</html>`);
}

/** The hidden field that proves a POST came from this page (see same-origin-post.ts). */
export function csrfField(c: Context<ConsoleEnv>) {
  return html`<input type="hidden" name="${csrfFieldName}" value="${c.get('session').csrfToken}">`;
}

/** A multipart form's action with the CSRF token in its query (see same-origin-post.ts). */
export function csrfAction(c: Context<ConsoleEnv>, path: string): string {
  const separator = path.includes('?') ? '&' : '?';
  return `${path}${separator}${csrfFieldName}=${encodeURIComponent(c.get('session').csrfToken)}`;
}
