import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Summary } from '../../scripts/simulate/summary.js';
import { dataFolder, freePort, runScript, startServer } from './support/local-cli.js';

/** A fresh clone: no keys configured, nothing but `npm start` and `npm run simulate`. */
describe('local mode without configuration', () => {
  const folder = dataFolder('local-zero-');

  it('generates a development key, keeps it across restarts, and the simulator finds both URL and key', async () => {
    const env = { DATA_DIR: folder.path, PORT: String(await freePort()) };
    const first = await startServer(env);
    const printedKey = /API key +(\S+)/.exec(first.stdout())?.[1];

    const simulated = await runScript('simulate', ['--count', '20', '--json'], env);
    await first.stop();
    const second = await startServer(env);
    await second.stop();

    expect(printedKey).toMatch(/^dev-[0-9a-f]{32}$/);
    expect(first.stdout()).toMatch(/generated now, saved in/);
    expect((await readFile(join(folder.path, 'dev-api-key'), 'utf8')).trim()).toBe(printedKey);
    expect(simulated.code, simulated.stderr).toBe(0);
    expect(JSON.parse(simulated.stdout) as Summary).toMatchObject({ url: first.url, recorded: 20 });
    expect(/API key +(\S+)/.exec(second.stdout())?.[1]).toBe(printedKey);
    expect(second.stdout()).toMatch(/development key from/);
  });
});
