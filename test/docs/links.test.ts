import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The README and docs/ point only at things that exist in the repository: every relative link
 * (and its #anchor), and every repository path written in backticks. A clone has nothing beside
 * it, so no link or path may leave the repository.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];

/** Markdown without its fenced blocks: commands and sample output are not links. */
function prose(page: string): string {
  return readFileSync(join(root, page), 'utf8').replace(/^```[\s\S]*?^```$/gm, '');
}

/** GitHub's heading anchors: lowercase, punctuation dropped, spaces to hyphens. */
function anchors(page: string): Set<string> {
  const slugs = new Set<string>();
  for (const [, heading] of prose(page).matchAll(/^#{1,6} (.+)$/gm)) {
    let slug = (heading ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    for (let n = 1; slugs.has(slug); n++) slug = `${slug.replace(/-\d+$/, '')}-${n}`;
    slugs.add(slug);
  }
  return slugs;
}

function insideRepository(path: string): boolean {
  const fromRoot = relative(root, path);
  return !fromRoot.startsWith('..') && !fromRoot.startsWith('/');
}

const links = pages.flatMap((page) =>
  [...prose(page).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !/^[a-z]+:/i.test(target))
    .map((target) => ({ page, target })),
);

/** Backticked text that names a file or folder of this repository. */
const repositoryPath = /^(?:lambda|infra|scripts|bench|test|docs|\.ci)\/[\w./-]*$/;
const paths = pages.flatMap((page) =>
  [...prose(page).matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1] ?? '')
    .filter((text) => repositoryPath.test(text) && !text.includes('*'))
    .map((path) => ({ page, path })),
);

describe('links and paths in README.md and docs/', () => {
  it('finds the pages and their links', () => {
    expect(pages).toContain('docs/callback-hash.md');
    expect(links.length).toBeGreaterThan(0);
  });

  it.each(links)('$page links to $target, which exists', ({ page, target }) => {
    const [file = '', anchor] = target.split('#');
    const linked = file === '' ? join(root, page) : resolve(root, dirname(page), file);
    expect(insideRepository(linked), `${target} leaves the repository`).toBe(true);
    expect(existsSync(linked), `${target} does not exist`).toBe(true);
    if (anchor !== undefined && linked.endsWith('.md')) {
      expect(anchors(relative(root, linked))).toContain(anchor);
    }
  });

  it.each(paths)('$page names $path, which exists', ({ path }) => {
    expect(existsSync(join(root, path))).toBe(true);
  });

  it.each(pages)('%s names no path outside the repository', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared|shared\/spec|\/work\//);
  });
});
