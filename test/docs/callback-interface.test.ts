import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { fieldTable } from '../../lambda/callback/field-table.js';

test('docs/callback-interface.md lists every transaction field exactly as transaction-fields.ts declares it', () => {
  const doc = readFileSync(new URL('../../docs/callback-interface.md', import.meta.url), 'utf8');
  expect(doc).toContain(fieldTable());
});
