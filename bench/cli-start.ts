/**
 * `npm run bench:cli`: how long a command takes from exec to exit, the built executable against
 * `node -e 0` (the floor no Node program starts under), the npm alias, and the TypeScript run
 * under tsx as every command ran before the build. Fresh processes, subjects interleaved run by
 * run so a busy moment of the machine falls on all of them; medians printed, never judged.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildBin } from '../scripts/cli/build-bin.js';
import { positiveInteger } from '../scripts/cli/cli-errors.js';
import { commandProgram, runProgram } from '../scripts/cli/command-program.js';
import { ensureTable, localDynamoDbClient } from '../scripts/local/engine/local-engine.js';
import { localAwsEnvironment, withEngine } from './support/engines.js';
import { cleanEnvironment, node24, repositoryRoot } from './support/node24.js';

const program = commandProgram('bench:cli', 'Start-to-exit time of the commands.', {
  ok: 'measured (figures are printed, never judged)',
})
  .option('--runs <n>', 'measured runs per subject', positiveInteger('--runs'), 21)
  .action(async ({ runs }) => {
    const bin = await buildBin();
    await withEngine('dynalite', async (engine) => {
      const tableName = `bench-cli-${process.pid}`;
      const client = localDynamoDbClient(engine.endpoint);
      await ensureTable(client, tableName, { create: true });
      client.destroy();
      const node = node24();
      // An unknown reference: the same reads as a known one (the item, then its conflicts).
      const get = ['query', 'get', 'bench-cli-reference'];
      const subjects: Subject[] = [
        { name: 'node -e 0', command: node, args: ['-e', '0'] },
        { name: 'callback-receiver --help', command: node, args: [bin, '--help'] },
        { name: 'callback-receiver query --help', command: node, args: [bin, 'query', '--help'] },
        { name: 'callback-receiver query get <ref>', command: node, args: [bin, ...get] },
        {
          name: 'npm run -s query -- get <ref>',
          command: 'npm',
          args: ['run', '-s', 'query', '--', ...get.slice(1)],
        },
        {
          name: 'before: tsx query-command.ts get <ref>',
          command: node,
          args: ['--import', 'tsx', join('scripts', 'query', 'query-command.ts'), ...get.slice(1)],
        },
      ];
      const env = cleanEnvironment({
        ...localAwsEnvironment,
        // npm and the pinned node: as `npm run` and npx give every command.
        PATH: `${join(repositoryRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`,
        AWS_ENDPOINT_URL_DYNAMODB: engine.endpoint,
        TABLE_NAME: tableName,
      });
      // One unmeasured run each: the file cache warm for all, as on a second try.
      for (const subject of subjects) await timed(subject, env);
      const times = new Map(subjects.map((subject) => [subject.name, [] as number[]]));
      for (let run = 0; run < runs; run++) {
        for (const subject of subjects) times.get(subject.name)?.push(await timed(subject, env));
      }
      const floor = median(times.get('node -e 0') ?? []);
      const width = Math.max(...subjects.map((subject) => subject.name.length));
      const lines = [`${'subject'.padEnd(width)}  median ms  min ms  ratio to node -e 0`];
      for (const subject of subjects) {
        const samples = times.get(subject.name) ?? [];
        lines.push(
          [
            subject.name.padEnd(width),
            median(samples).toFixed(0).padStart(9),
            Math.min(...samples)
              .toFixed(0)
              .padStart(6),
            (median(samples) / floor).toFixed(1).padStart(19),
          ].join('  '),
        );
      }
      process.stdout.write(`${lines.join('\n')}\n(${runs} runs each, interleaved; dynalite)\n`);
    });
  });

await runProgram(program, 'bench:cli');

interface Subject {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

/** Milliseconds from spawn to exit; a failed start (not the 1 of an unknown reference) throws. */
function timed(subject: Subject, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = spawn(subject.command, subject.args, { cwd: repositoryRoot, env, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.resume();
  return new Promise((done, fail) =>
    child.once('exit', (code) => {
      const ms = performance.now() - started;
      if (code === 0 || code === 1) done(ms);
      else fail(new Error(`${subject.name} exited ${code}: ${stderr}`));
    }),
  );
}

function median(samples: readonly number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
