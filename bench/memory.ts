/**
 * `npm run bench:memory`: the receiver's memory under load, alone: the receiver in a fresh process
 * answers new callbacks, over a store that keeps nothing (`--engine memory`, the default) or as
 * deployed against DynamoDB Local or dynalite, and memory is read after 1,000 and after 20,000
 * of them. `--compare name=file.mjs` runs a bundle built from another commit the same way.
 * `npm run bench` measures the in-memory case too.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Option } from '@commander-js/extra-typings';
import { commandProgram, runProgram } from '../scripts/cli/command-program.js';
import { measureMemory, memoryTable } from './measure/memory.js';
import { collect, compareBundles } from './support/compare-bundles.js';
import { withEngine } from './support/engines.js';
import { repositoryRoot } from './support/node24.js';

const program = commandProgram(
  'bench:memory',
  "The receiver's memory after 1,000 and 20,000 callbacks.",
  { ok: 'measured (figures are printed, never judged)' },
)
  .option('--checkpoints <list>', 'callbacks answered at each reading', '1000,20000')
  .option('--concurrency <n>', 'callbacks in flight at once', '16')
  .option('--json <file>', 'also write every reading, with V8 heap spaces, as JSON')
  .option('--compare <name=file>', 'also run this pre-built bundle', collect, [] as string[])
  .addOption(
    new Option('--engine <engine>', 'where the callbacks are written')
      .choices(['memory', 'dynamodb-local', 'dynalite'])
      .default('memory'),
  )
  .action(async (options) => {
    const extraBundles = compareBundles(options.compare);
    const checkpoints = options.checkpoints.split(',').map(Number);
    const workDir = join(repositoryRoot, 'bench', 'results', 'tmp', 'memory');
    const settings = { checkpoints, concurrency: Number(options.concurrency), extraBundles };
    const results =
      options.engine === 'memory'
        ? await measureMemory(workDir, { ...settings, engine: 'memory' })
        : await withEngine(
            options.engine === 'dynalite' ? 'dynalite' : 'DynamoDB Local',
            (engine) => measureMemory(workDir, { ...settings, engine }),
          );
    process.stdout.write(`${memoryTable(results)}\n`);
    if (options.json) await writeFile(options.json, `${JSON.stringify(results, null, 2)}\n`);
  });

await runProgram(program, 'bench:memory');
