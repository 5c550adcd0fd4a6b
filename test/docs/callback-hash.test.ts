import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { computeHash } from '../../lambda/callback/callback-hash.js';
import type { HashMode } from '../../lambda/config/config.js';
import { callbackEvent } from '../support/fixtures.js';
import { MemoryTransactionStore } from '../support/memory-transaction-store.js';
import { receiverWith } from '../support/receiver.js';

/**
 * docs/callback-hash.md cannot go stale: every digest on the page is recomputed from the page's
 * own text, and every body it shows is sent through the real handler with its example's key.
 * The page marks its parts with fenced-block info strings (`text key`, `text hashed`,
 * `json wire`, `json refused`) and a `Digest:` line per example.
 */
const page = readFileSync(new URL('../../docs/callback-hash.md', import.meta.url), 'utf8');

function blocks(text: string, info: string): string[] {
  const fence = new RegExp(`^\`\`\`${info}\\n([\\s\\S]*?)\\n\`\`\`$`, 'gm');
  return [...text.matchAll(fence)].map((match) => match[1] ?? '');
}

interface Example {
  readonly title: string;
  readonly key: string;
  readonly hashed: string;
  readonly digest: string;
  readonly wire: readonly string[];
  readonly refused: readonly string[];
}

/** The page's key, given before the first example; an example may give its own. */
const [pageKey = ''] = blocks(page.slice(0, page.indexOf('\n### ')), 'text key');

function examples(text: string): Example[] {
  return text
    .split(/^### /m)
    .slice(1)
    .map((section) => {
      const [key = pageKey] = blocks(section, 'text key');
      const hashed = blocks(section, 'text hashed');
      const digest = /^Digest: `([0-9a-f]{64})`$/m.exec(section)?.[1];
      if (hashed.length !== 1 || hashed[0] === undefined || digest === undefined) {
        throw new Error(`Example without one hashed text and one digest: ${section.slice(0, 60)}`);
      }
      return {
        title: section.slice(0, section.indexOf('\n')),
        key,
        hashed: hashed[0],
        digest,
        wire: blocks(section, 'json wire'),
        refused: blocks(section, 'json refused'),
      };
    });
}

const worked = examples(page);

async function send(body: string, key: string, hashMode: HashMode = 'required') {
  const store = new MemoryTransactionStore();
  const answer = await receiverWith(store, { keys: [key], hashMode })(
    callbackEvent(body, { headers: { 'x-api-key': key } }),
  );
  return { answer, stored: [...store.records.values()] };
}

describe('docs/callback-hash.md', () => {
  it('gives a key and at least seven worked examples, each with a body the gateway sends', () => {
    expect(pageKey).toMatch(/^[0-9a-f]{32}$/);
    expect(worked.length).toBeGreaterThanOrEqual(7);
    for (const example of worked) {
      expect(example.key).toMatch(/^[0-9a-f]{32}$/);
      expect(example.wire.length).toBeGreaterThan(0);
    }
  });

  it.each(worked)('states the digest of its hashed text: $title', ({ hashed, key, digest }) => {
    const independent = createHash('sha256')
      .update(Buffer.from(hashed + key, 'utf8'))
      .digest('hex');
    expect(independent).toBe(digest);
    expect(computeHash(hashed, key)).toBe(digest);
  });

  it.each(worked)('shows bodies the receiver records as verified: $title', async (example) => {
    for (const body of example.wire) {
      expect((JSON.parse(body) as { hash: string }).hash.toLowerCase()).toBe(example.digest);
      const { answer, stored } = await send(body, example.key);
      expect(answer.statusCode).toBe(204);
      expect(answer.headers?.['x-callback-outcome']).toBe('recorded');
      expect(stored.map((record) => record.hashResult)).toEqual(['verified']);
    }
  });

  it('shows a re-serialized body that the receiver refuses with 403', async () => {
    const refused = worked.flatMap(({ refused, key }) => refused.map((body) => ({ body, key })));
    expect(refused.length).toBeGreaterThan(0);
    for (const { body, key } of refused) {
      const { answer, stored } = await send(body, key);
      expect(answer.statusCode).toBe(403);
      expect(stored).toEqual([]);
    }
  });

  it('shows a shell check whose stated digest is that of its own key and text', () => {
    const [shell] = blocks(page, 'sh');
    const quoted = (name: string) => new RegExp(`^${name}='([^']*)'$`, 'm').exec(shell ?? '')?.[1];
    const stated = /# ([0-9a-f]{64}) {2}-$/m.exec(shell ?? '')?.[1];
    const text = quoted('S');
    const key = quoted('K');
    expect(worked.some((example) => example.hashed === text && example.key === key)).toBe(true);
    expect(createHash('sha256').update(`${text}${key}`, 'utf8').digest('hex')).toBe(stated);
  });

  it('holds no digest that is not one of its worked examples', () => {
    const digests = new Set(worked.map((example) => example.digest));
    const onPage = page.match(/(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/g) ?? [];
    expect(onPage.length).toBeGreaterThan(worked.length);
    for (const hex of onPage) expect(digests).toContain(hex.toLowerCase());
  });
});

type HashKind = 'absent' | 'empty' | 'right' | 'wrong' | 'null' | 'number';

/** The kinds of hash the page's missing-hash table has a row for, by the row's first cell. */
const hashKinds: Record<string, readonly HashKind[]> = {
  'absent, or `""`': ['absent', 'empty'],
  '64 hex digits that verify': ['right'],
  'any other text': ['wrong'],
  'not a text (`null`, a number)': ['null', 'number'],
};

/**
 * The page's missing-hash table as cases: each of its cells, for each kind of hash its row
 * stands for; the outcome is a problem (`hash-missing`) or the `hashResult` stored.
 */
function outcomeTable(text: string) {
  const section = text.slice(text.indexOf('## When the hash is missing'));
  const [header = [], , ...rows] = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const modes = header.slice(1).map((cell) => /^`([a-z-]+)`/.exec(cell)?.[1] as HashMode);
  return rows.flatMap(([row = '', ...cells]) => {
    const kinds = hashKinds[row];
    if (kinds === undefined) throw new Error(`A row of the missing-hash table is new: ${row}`);
    return cells.flatMap((cell, column) => {
      const expected = /^(4\d\d) `([a-z-]+)`$|^recorded, `hashResult: ([a-z-]+)`$/.exec(cell);
      if (expected === null) throw new Error(`An outcome of the table is new: ${cell}`);
      const mode = modes[column] as HashMode;
      const [, status, problem, hashResult] = expected;
      return kinds.map((kind) => ({
        kind,
        mode,
        expected: problem ?? hashResult ?? '',
        status: status === undefined ? 204 : Number(status),
      }));
    });
  });
}

describe('the missing-hash table of docs/callback-hash.md', () => {
  const [example] = worked;
  const key = example?.key ?? '';
  const signedBody = example?.wire[0] ?? '';
  const withHash = (hash: string) => signedBody.replace(/"hash":"[0-9a-f]{64}"/, hash);
  const bodies: Record<HashKind, string> = {
    absent: withHash('"note":"no hash member"'),
    empty: withHash('"hash":""'),
    right: signedBody,
    wrong: withHash(`"hash":"${'0'.repeat(64)}"`),
    null: withHash('"hash":null'),
    number: withHash('"hash":42'),
  };

  const cases = outcomeTable(page);

  it('has a row for every kind of hash and a column for every HASH_MODE', () => {
    expect(new Set(cases.map(({ kind }) => kind))).toEqual(
      new Set(['absent', 'empty', 'right', 'wrong', 'null', 'number']),
    );
    expect(new Set(cases.map(({ mode }) => mode))).toEqual(
      new Set(['required', 'if-present', 'off']),
    );
  });

  it.each(cases)(
    'a hash that is $kind, with HASH_MODE=$mode, gives $expected',
    async ({ kind, mode, expected, status }) => {
      const { answer, stored } = await send(bodies[kind], key, mode);
      expect(answer.statusCode).toBe(status);
      if (status !== 204) {
        expect(JSON.parse(answer.body).type).toBe(`urn:callback-receiver:problem:${expected}`);
        expect(stored).toEqual([]);
      } else {
        expect(stored.map((record) => record.hashResult)).toEqual([expected]);
      }
    },
  );
});
