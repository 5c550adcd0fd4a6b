import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';

const require = createRequire(import.meta.url);
const own = (name: string) => fileURLToPath(new URL(`./assets/${name}`, import.meta.url));

/**
 * What the pages load, all from this server (no CDN: the CSP allows `'self'` only): the console's
 * own files, and htmx and uPlot from node_modules as their packages ship them. A Map, not an
 * object: a name from the URL must never reach `Object.prototype` (`constructor`, `__proto__`).
 */
const files = new Map<string, { readonly path: string; readonly type: string }>([
  ['console.css', { path: own('console.css'), type: 'text/css' }],
  ['console.js', { path: own('console.js'), type: 'text/javascript' }],
  ['htmx.min.js', { path: require.resolve('htmx.org/dist/htmx.min.js'), type: 'text/javascript' }],
  [
    'uplot.min.js',
    { path: require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript' },
  ],
  ['uplot.min.css', { path: require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css' }],
]);

/** Registers another file of the console's own assets folder (a view's script). */
export function ownAsset(name: string, type = 'text/javascript'): void {
  files.set(name, { path: own(name), type });
}

export function serveAssets(app: Hono<never>): void {
  app.get('/assets/:name', async (c) => {
    const file = files.get(c.req.param('name'));
    if (file === undefined) return c.notFound();
    c.header('content-type', `${file.type}; charset=utf-8`);
    return c.body(await readFile(file.path));
  });
}
