import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { heavy } from './test/support/test-weight.js';
import base from './vitest.config.js';

/**
 * The inner loop (`npm run test:unit`): every test file that needs no engine, no browser, no
 * synthesized stack and no child process (test/support/test-weight.ts). A file that needs an
 * engine and slipped through fails at import: engines.ts throws when no engine was started, and
 * this config starts none.
 */
const unit = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => join('test', name))
  .filter((file) => !heavy(file));
// Spread, not mergeConfig: that would append to the base's include and globalSetup.
export default defineConfig({
  ...base,
  test: { ...base.test, include: unit, globalSetup: [], coverage: { enabled: false } },
});
