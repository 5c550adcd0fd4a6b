import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { optionsTable } from '../../infra/options-table.js';

test('docs/deploy.md lists every deployment option exactly as infra/deployment-options.ts declares it', () => {
  const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  expect(doc).toContain(optionsTable());
});
