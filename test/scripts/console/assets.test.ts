import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { serveAssets } from '../../../scripts/console/assets.js';

/**
 * The asset route on its own: a name comes straight from the URL, so one that happens to be a
 * property every object inherits must be as unknown as any other.
 */
function assetApp() {
  const app = new Hono<never>();
  const errors: unknown[] = [];
  app.onError((error, c) => {
    errors.push(error);
    return c.text('failed', 500);
  });
  serveAssets(app);
  return { app, errors };
}

describe('serveAssets', () => {
  it('serves a known asset with its type', async () => {
    const { app } = assetApp();

    const answer = await app.request('/assets/console.css');

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it.each([
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'isPrototypeOf',
    'propertyIsEnumerable',
    'toLocaleString',
    '__defineGetter__',
    '__lookupGetter__',
  ])('answers 404 for /assets/%s, an Object.prototype name, without failing', async (name) => {
    const { app, errors } = assetApp();

    const answer = await app.request(`/assets/${name}`);

    expect(answer.status).toBe(404);
    expect(errors).toEqual([]);
  });

  it('answers 404 for a name it does not know', async () => {
    const { app } = assetApp();

    expect((await app.request('/assets/missing.js')).status).toBe(404);
  });
});
