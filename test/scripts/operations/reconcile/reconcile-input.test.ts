import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  detectFormat,
  reconcileWindow,
} from '../../../../scripts/operations/reconcile/reconcile-input.js';

describe('the window reconcile compares', () => {
  it('is yesterday, in UTC, unless given', () => {
    expect(reconcileWindow(undefined, undefined, new Date('2026-11-22T01:30:00+03:00'))).toEqual({
      since: '2026-11-20T00:00:00.000Z',
      lastIncluded: '2026-11-20T23:59:59.999Z',
    });
    expect(reconcileWindow('2026-11-01', '2026-11-02')).toEqual({
      since: '2026-11-01T00:00:00.000Z',
      lastIncluded: '2026-11-01T23:59:59.999Z',
    });
  });
});

describe("a report's format", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'reconcile-input-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const file = async (name: string, text: string) => {
    const path = join(folder, name);
    await writeFile(path, text);
    return path;
  };

  it('follows the extension, and standard input is CSV', async () => {
    expect(await detectFormat(await file('a.CSV', '{}'))).toBe('csv');
    expect(await detectFormat(await file('a.ndjson', 'reference'))).toBe('jsonl');
    expect(await detectFormat('-')).toBe('csv');
    // An upload's own name decides, not where it was saved.
    expect(await detectFormat(await file('upload-1', 'reference,amount'), 'report.jsonl')).toBe(
      'jsonl',
    );
  });

  it('without a telling extension: JSON Lines when it starts with {, past a byte order mark and blanks, else CSV', async () => {
    expect(await detectFormat(await file('report-1', '\uFEFF\n  {"reference":"r"}\n'))).toBe(
      'jsonl',
    );
    expect(await detectFormat(await file('report-2', 'reference,amount\nr,1\n'))).toBe('csv');
  });
});
