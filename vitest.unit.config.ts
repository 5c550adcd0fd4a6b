import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * The inner loop (`npm run test:unit`): every test file that needs no engine, no browser, no
 * synthesized stack and no child process, chosen by what it imports rather than by a list that
 * would drift. A file that needs an engine and slipped through fails at import: engines.ts
 * throws when no engine was started, and this config starts none.
 */
const needsMore =
  /(support|\.)\/(engines|console-browser|local-cli|crashing-command|dynamodb-local-stream)\.js|node:child_process|\bsynth\b|\bspawn\(|\bexecFile\b|startDynalite|startDynamoDbLocal|playwright/;

/** Whether a test file, or a test helper it imports (followed through test/), needs more. */
function heavy(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (needsMore.test(text)) return true;
  return [...text.matchAll(/from '(\.[^']+)\.js'/g)]
    .map(([, path]) => join(dirname(file), `${path}.ts`))
    .some(
      (imported) => imported.startsWith('test/') && existsSync(imported) && heavy(imported, seen),
    );
}

const unit = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join('test', name))
  .filter((file) => !heavy(file));
// Spread, not mergeConfig: that would append to the base's include and globalSetup.
export default defineConfig({
  ...base,
  test: { ...base.test, include: unit, globalSetup: [], coverage: { enabled: false } },
});
