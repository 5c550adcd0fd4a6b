/**
 * AWS DynamoDB Local, pinned, into `.cache` (the command: fetch-command.ts). The jar ships in the
 * `emulator/` folder of the npm package `amplify-dynamodb-simulator`, taken with `npm pack` (the
 * npm registry is the only network the build may use) rather than as a dependency, which would
 * pull a large tree for one folder.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const pinned = {
  name: 'amplify-dynamodb-simulator',
  version: '2.9.30',
  /** `npm view amplify-dynamodb-simulator@2.9.30 dist.integrity`; the tarball must match it. */
  integrity:
    'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==',
};

/** Written last, holding the integrity: a half-done or other-version extraction lacks it. */
const completeMarker = '.complete';

/** The cached folder that holds DynamoDBLocal.jar, fetched first if missing. */
export async function fetchDynamoDbLocal(options: { log?: (message: string) => void } = {}) {
  const log = options.log ?? (() => {});
  const target = resolve(import.meta.dirname, '../../../.cache/dynamodb-local', pinned.version);
  if (await isComplete(target)) return target;

  const spec = `${pinned.name}@${pinned.version}`;
  log(`Fetching DynamoDB Local from ${spec} (about 57 MB, once)…`);
  await mkdir(dirname(target), { recursive: true });
  const work = await mkdtemp(join(tmpdir(), 'dynamodb-local-'));
  // Extracted beside the target and renamed, so the cache never holds a partial copy.
  const staging = await mkdtemp(`${target}.partial-`);
  try {
    const packed = await run('npm', ['pack', spec, '--json', '--pack-destination', work], {
      shell: process.platform === 'win32', // npm is a .cmd shim there, which only a shell runs
      maxBuffer: 16 * 1024 * 1024,
    });
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    const tarball = join(work, filename);
    const actual = `sha512-${createHash('sha512')
      .update(await readFile(tarball))
      .digest('base64')}`;
    if (actual !== pinned.integrity) {
      throw new Error(
        `${spec} tarball integrity mismatch: expected ${pinned.integrity}, got ${actual}`,
      );
    }
    await run('tar', ['-xzf', tarball, '-C', staging, '--strip-components=2', 'package/emulator']);
    await access(join(staging, 'DynamoDBLocal.jar'));
    await access(join(staging, 'DynamoDBLocal_lib'));
    await writeFile(join(staging, completeMarker), `${pinned.integrity}\n`);
    try {
      await rename(staging, target);
    } catch (error) {
      // Another process (a parallel run) finished first: its copy is as good as ours.
      if (await isComplete(target)) return target;
      // Otherwise the target is a leftover without the marker: replace it.
      await rm(target, { recursive: true, force: true });
      await rename(staging, target).catch((retryError: unknown) => {
        throw new AggregateError(
          [error, retryError],
          `Could not move DynamoDB Local into ${target}`,
        );
      });
    }
    log(`DynamoDB Local cached in ${target}`);
    return target;
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }
}

async function isComplete(dir: string): Promise<boolean> {
  const marker = await readFile(join(dir, completeMarker), 'utf8').catch(() => '');
  return marker.trim() === pinned.integrity;
}
