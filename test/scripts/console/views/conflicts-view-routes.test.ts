import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { takeChanges } from '../../../../scripts/operations/events/change-notes.js';
import { type EventFiles, eventFiles } from '../../../../scripts/operations/events/event-files.js';
import { readReference } from '../../../../scripts/table/reference-state.js';
import type { TestConsole } from '../../../support/console-browser.js';
import { suiteConsole } from '../../../support/console-suite.js';
import { type Engine, forEachEngine } from '../../../support/engines.js';
import { transaction } from '../../../support/fixtures.js';
import { type ConsoleRoutes, consoleRoutes } from '../support/console-routes.js';

/**
 * The Conflicts view's routes asked in-process, without a browser: its pages, the settle forms'
 * refusals and what settling writes. conflicts-view*.test.ts drive the same pages in Chromium.
 */

/** A stored transaction and one delivery of the same reference with another amount. */
async function conflicted(console: TestConsole, reference?: string) {
  const stored = transaction({ amount: 1000, ...(reference ? { reference } : {}) });
  expect(await console.deliver(stored)).toBe(204);
  expect(await console.deliver({ ...stored, amount: 1250 })).toBe(409);
  return String(stored.reference);
}

/** The settle form's hidden fields for the reference's one open conflict. */
async function openConflict(routes: ConsoleRoutes, reference: string) {
  const page = (await routes.get(`/conflicts/${encodeURIComponent(reference)}`)).text;
  const conflict = /name="conflict" value="([0-9a-f]{64})"/.exec(page)?.[1];
  const version = /name="version" value="(\d+)"/.exec(page)?.[1];
  if (conflict === undefined || version === undefined) throw new Error(`no open conflict: ${page}`);
  return { conflict, version };
}

/** The value of the reference's checkbox in the list: `version:fingerprint:reference`. */
async function selectable(routes: ConsoleRoutes, reference: string) {
  const { conflict, version } = await openConflict(routes, reference);
  return `${version}:${conflict}:${reference}`;
}

async function settlementOf(console: TestConsole, reference: string) {
  const context = { client: console.table.client, tableName: console.table.tableName };
  const state = await readReference(context, reference);
  return { version: state.version, settled: state.conflicts.map((one) => one.settlement) };
}

const noIdentity = () => Promise.reject('the STS token expired');

forEachEngine((engine: Engine) => {
  describe('the conflicts view, route by route', () => {
    const console = suiteConsole(engine);
    let folder: string;
    let files: EventFiles;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'conflicts-routes-'));
      files = eventFiles(folder);
      await mkdir(files.dir); // as if local forwarding had started
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));

    it('answers 404 for a reference with neither a transaction nor a conflict', async () => {
      const answer = await consoleRoutes(console).get('/conflicts/ref-never-delivered');
      expect(answer.status).toBe(404);
      expect(answer.text).toContain('<strong>no transaction is recorded with it</strong>');
      expect(answer.text).toContain('0 conflicts, 0 open');
    });

    it('pages by ?size=, links back to a first page without it, and starts over on a foreign cursor', async () => {
      const routes = consoleRoutes(console);
      await conflicted(console);
      await conflicted(console);
      const first = await routes.get('/conflicts?size=1');
      expect(first.text).toContain('1 open conflict on this page');
      const next = /<a href="([^"]*)" rel="next">/.exec(first.text)?.[1]?.replaceAll('&amp;', '&');
      expect(next).toMatch(/^\/conflicts\?size=1&after=/);

      const second = await routes.get(next as string);
      expect(second.text).toContain('<a href="/conflicts?size=1">First page</a>');
      const after = new URL(next as string, 'http://x').searchParams.get('after');
      const unsized = await routes.get(`/conflicts?after=${after}`);
      expect(unsized.text).toContain('<a href="/conflicts">First page</a>');

      for (const foreign of [
        Buffer.from('[1]').toString('base64url'),
        Buffer.from('{}').toString('base64url'),
        Buffer.from('{"a":null}').toString('base64url'),
        Buffer.from(JSON.stringify({ a: { S: 'x' }, b: { N: 'NaN' } })).toString('base64url'),
        Buffer.from(JSON.stringify({ a: { S: 'x', B: 'y' } })).toString('base64url'),
        Buffer.from(JSON.stringify({ a: { S: 'x' }, b: {}, c: {}, d: {}, e: {} })).toString(
          'base64url',
        ),
        '%7B',
      ]) {
        const again = await routes.get(`/conflicts?size=1&after=${foreign}`);
        expect(again.status).toBe(200);
        expect(again.text).not.toContain('First page');
      }
    });

    it('shows no select boxes on a read-only console, and refuses its settle posts with 403', async () => {
      await conflicted(console);
      const routes = consoleRoutes(console, { allowActions: false, mode: 'deployed' });
      const list = await routes.get('/conflicts');
      expect(list.text).toContain('open</span>');
      expect(list.text).not.toContain('type="checkbox"');
      for (const path of ['/conflicts/settle-selected', '/conflicts/ref-x/settle']) {
        const answer = await routes.post(path, { accept: 'received', reason: 'x' });
        expect(answer.status).toBe(403);
        expect(answer.text).toMatch(/^Refused: this console is read-only/);
      }
    });

    describe('settling one', () => {
      it('refuses an incomplete form with 400 and writes nothing', async () => {
        const routes = consoleRoutes(console);
        const reference = await conflicted(console);
        const { conflict, version } = await openConflict(routes, reference);
        for (const form of [
          { accept: 'both', conflict, version, reason: 'x' },
          { accept: 'received', conflict: '', version, reason: 'x' },
          { accept: 'received', conflict, version: '0', reason: 'x' },
          { accept: 'received', conflict, version: 'one', reason: 'x' },
        ]) {
          const answer = await routes.post(`/conflicts/${reference}/settle`, form);
          expect(answer).toEqual({
            status: 400,
            text: 'Refused: the settle form is incomplete. Reload the page and try again.',
          });
        }
        expect(await settlementOf(console, reference)).toEqual({
          version: 1,
          settled: [undefined],
        });
      });

      it('answers 409 when who the operator is cannot be established, keeping the reason typed', async () => {
        const reference = await conflicted(console);
        const form = {
          accept: 'received',
          reason: 'TICKET-12',
          ...(await openConflict(consoleRoutes(console), reference)),
        };
        const answer = await consoleRoutes(console, { operator: noIdentity }).post(
          `/conflicts/${reference}/settle`,
          form,
        );
        expect(answer.status).toBe(409);
        expect(answer.text).toContain(
          'Not settled, nothing was written: who you are could not be established: the STS token expired.',
        );
        expect(answer.text).toMatch(/<textarea [^>]*>TICKET-12<\/textarea>/);
        expect(await settlementOf(console, reference)).toEqual({
          version: 1,
          settled: [undefined],
        });
      });

      it('tells local forwarding of the settled reference', async () => {
        const routes = consoleRoutes(console, { eventFiles: files });
        const reference = await conflicted(console);
        const form = {
          accept: 'received',
          reason: 'gateway confirmed',
          ...(await openConflict(routes, reference)),
        };
        const answer = await routes.post(`/conflicts/${reference}/settle`, form);
        expect(answer.status).toBe(200);
        expect(answer.text).toContain('role="status" id="outcome"');
        expect((await settlementOf(console, reference)).version).toBe(2);
        const notes = await takeChanges(files);
        expect(notes.references).toEqual([reference]);
        await notes.done();
      });
    });

    describe('settling several', () => {
      it('says what is missing with 422, and writes nothing', async () => {
        const routes = consoleRoutes(console);
        const reference = await conflicted(console);
        const item = await selectable(routes, reference);
        const cases = [
          [
            { item: 'not-a-conflict', accept: 'received', reason: 'x' },
            'Select at least one open conflict to settle.',
          ],
          [{ item, accept: 'both', reason: 'x' }, 'Choose Accept received or Keep stored.'],
          [{ item, accept: 'stored', reason: '  ' }, 'Give a reason, up to'],
        ] as const;
        for (const [form, problem] of cases) {
          const answer = await routes.post('/conflicts/settle-selected', form);
          expect(answer.status).toBe(422);
          expect(answer.text).toContain(problem);
          expect(answer.text).toContain('Nothing was written.');
        }
        expect(await settlementOf(console, reference)).toEqual({
          version: 1,
          settled: [undefined],
        });
      });

      it('asks about one conflict in the singular, then settles it and tells local forwarding', async () => {
        const routes = consoleRoutes(console, { eventFiles: files });
        const reference = await conflicted(console);
        const form = {
          item: await selectable(routes, reference),
          accept: 'stored',
          reason: 'kept',
        };
        const asked = await routes.post('/conflicts/settle-selected', form);
        expect(asked.text).toContain('Settle 1 conflict, keeping the stored content?');
        expect((await settlementOf(console, reference)).settled).toEqual([undefined]);

        const done = await routes.post('/conflicts/settle-selected', { ...form, confirmed: '1' });
        expect(done.text).toContain('1 of 1 done.');
        const { settled } = await settlementOf(console, reference);
        expect(settled[0]).toMatchObject({ resolution: 'stored', reason: 'kept' });
        const notes = await takeChanges(files);
        expect(notes.references).toEqual([reference]);
        await notes.done();
      });

      it('settles none when who the operator is cannot be established', async () => {
        const reference = await conflicted(console);
        const item = await selectable(consoleRoutes(console), reference);
        const done = await consoleRoutes(console, { operator: noIdentity }).post(
          '/conflicts/settle-selected',
          { item, accept: 'received', reason: 'x', confirmed: '1' },
        );
        expect(done.text).toContain(
          'Not settled: who you are could not be established: the STS token expired.',
        );
        expect(await settlementOf(console, reference)).toEqual({
          version: 1,
          settled: [undefined],
        });
      });
    });
  });
});
