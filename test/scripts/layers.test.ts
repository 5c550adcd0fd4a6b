import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers of scripts/ that docs/design.md draws, lowest first: a folder may import only the
 * folders before it. `dev/` (developer tools) stands beside them and may use any.
 */
const layers = ['cli', 'table', 'operations', 'gateway', 'console', 'local', 'commands', 'dev'];

function sources(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') || name.endsWith('.js'))
    .map((name) => join(folder, name));
}

/** Every import of one scripts/ folder from another: [from folder, to folder, file, specifier]. */
function crossings(): [string, string, string, string][] {
  const found: [string, string, string, string][] = [];
  for (const file of sources('scripts')) {
    const from = file.split('/')[1] as string;
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) {
      const target = normalize(join(dirname(file), specifier as string));
      if (!target.startsWith('scripts/')) continue;
      const to = target.split('/')[1] as string;
      if (to !== from && !to.includes('.')) found.push([from, to, file, specifier as string]);
    }
  }
  return found;
}

describe('the layers of scripts/', () => {
  it('every folder is a layer the design names', () => {
    const folders = readdirSync('scripts', { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.sort()).toEqual([...layers].sort());
  });

  it('no folder imports a folder above it, so none imports one that imports it back', () => {
    const upward = crossings()
      .filter(([from, to]) => layers.indexOf(to) > layers.indexOf(from))
      .map(([from, to, file, specifier]) => `${file}: ${from} → ${to} (${specifier})`);
    expect(upward).toEqual([]);
  });

  it('finds the imports it checks (the scan is not empty)', () => {
    const pairs = new Set(crossings().map(([from, to]) => `${from}→${to}`));
    expect(pairs).toContain('operations→table');
    expect(pairs).toContain('local→console');
  });
});
