/**
 * `npm run bench:cold-start`: the cold start alone, ours against the SDK floor (and, with
 * `--compare name=file.mjs`, bundles built from other commits), in interleaved fresh processes on
 * DynamoDB Local. For weighing one change to what the receiver loads: `npm run bench` measures
 * the same way, with everything else.
 */
import { join } from 'node:path';
import { Option } from '@commander-js/extra-typings';
import { commandProgram, runProgram } from '../scripts/cli/command-program.js';
import { measureColdStart } from './measure/cold-start.js';
import { collect, compareBundles } from './support/compare-bundles.js';
import { withEngine } from './support/engines.js';
import { repositoryRoot } from './support/node24.js';

const program = commandProgram('bench:cold-start', 'Cold start of ours against the SDK floor.', {
  ok: 'measured (figures are printed, never judged)',
})
  .option('--processes <n>', 'measured fresh processes per bundle', '21')
  .option('--compare <name=file>', 'also run this pre-built bundle', collect, [] as string[])
  .addOption(
    new Option('--engine <engine>', 'where the first callback is written')
      .choices(['dynamodb-local', 'dynalite'])
      .default('dynamodb-local'),
  )
  .option('--baseline', 'also run the baseline bundle', false)
  .action(async (options) => {
    const extraBundles = compareBundles(options.compare);
    const engineName = options.engine === 'dynalite' ? 'dynalite' : 'DynamoDB Local';
    const results = await withEngine(engineName, (engine) =>
      measureColdStart(
        engine,
        Number(options.processes),
        join(repositoryRoot, 'bench', 'results', 'tmp', 'cold-start'),
        {
          subjects: options.baseline ? ['ours', 'baseline', 'floor'] : ['ours', 'floor'],
          extraBundles,
        },
      ),
    );
    const floor = results.find((result) => result.name === 'floor');
    const lines = [
      'subject | bundle KB | first answer ms | load ms | first callback ms | ratio to floor | CPU ms | CPU ratio',
    ];
    for (const result of results) {
      const ratio = floor ? (result.firstAnswerMs / floor.firstAnswerMs).toFixed(3) : '–';
      lines.push(
        [
          result.name,
          (result.bytes / 1024).toFixed(1),
          result.firstAnswerMs.toFixed(1),
          result.loadMs.toFixed(1),
          result.firstCallbackMs.toFixed(1),
          `${ratio} (paired ${result.pairedRatioToFloor.toFixed(3)})`,
          result.firstAnswerCpuMs.toFixed(1),
          floor
            ? `${(result.firstAnswerCpuMs / floor.firstAnswerCpuMs).toFixed(3)} (paired ${result.pairedCpuRatioToFloor.toFixed(3)})`
            : '–',
        ].join(' | '),
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  });

await runProgram(program, 'bench:cold-start');
