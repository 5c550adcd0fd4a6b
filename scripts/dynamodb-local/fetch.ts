/**
 * Fetches AWS DynamoDB Local (the Java emulator) pinned and cached.
 *
 * The jar ships in the `emulator/` folder of the npm package `amplify-dynamodb-simulator`; we take
 * it from there with `npm pack` (the npm registry is the only network the build may use) instead
 * of depending on the package, which would pull a large dependency tree for one folder.
 *
 * Run it: `npm run dynamodb-local:fetch`.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const dynamoDbLocalPackage = {
  name: 'amplify-dynamodb-simulator',
  version: '2.9.30',
  /** `npm view amplify-dynamodb-simulator@2.9.30 dist.integrity`; the tarball must match it. */
  integrity:
    'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==',
  /** Folder in the tarball that holds DynamoDBLocal.jar and DynamoDBLocal_lib/. */
  emulatorPath: 'package/emulator',
} as const;

/** The file that marks a complete extraction; written last, so a half-done one is never used. */
const completeMarker = '.complete';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the pinned emulator lives once fetched (`.cache` is gitignored). */
export function dynamoDbLocalDir(): string {
  return join(repoRoot, '.cache', 'dynamodb-local', dynamoDbLocalPackage.version);
}

export interface FetchOptions {
  /** Progress messages; silent by default. */
  readonly log?: (message: string) => void;
}

/**
 * Makes sure DynamoDB Local is in the cache and returns its folder (the one that holds
 * DynamoDBLocal.jar). Does nothing but a stat when it is already cached.
 */
export async function fetchDynamoDbLocal(options: FetchOptions = {}): Promise<string> {
  const log = options.log ?? (() => {});
  const target = dynamoDbLocalDir();
  if (await isComplete(target)) return target;

  const { name, version } = dynamoDbLocalPackage;
  log(`Fetching DynamoDB Local from ${name}@${version} (about 57 MB, once)…`);
  await mkdir(dirname(target), { recursive: true });
  const work = await mkdtemp(join(tmpdir(), 'dynamodb-local-'));
  try {
    await execFileAsync('npm', ['pack', `${name}@${version}`, '--pack-destination', work], {
      // npm is a .cmd shim on Windows, which only a shell runs.
      shell: process.platform === 'win32',
      maxBuffer: 16 * 1024 * 1024,
    });
    const tarballs = (await readdir(work)).filter((file) => file.endsWith('.tgz'));
    if (tarballs.length !== 1 || tarballs[0] === undefined) {
      throw new Error(`npm pack ${name}@${version} left ${tarballs.length} tarballs in ${work}`);
    }
    const tarball = join(work, tarballs[0]);

    const actual = await sha512Integrity(tarball);
    if (actual !== dynamoDbLocalPackage.integrity) {
      throw new Error(
        `${name}@${version} tarball integrity mismatch: expected ${dynamoDbLocalPackage.integrity}, got ${actual}`,
      );
    }

    // Extract next to the target and rename, so the cache never holds a partial copy.
    const staging = await mkdtemp(`${target}.partial-`);
    try {
      const strip = dynamoDbLocalPackage.emulatorPath.split('/').length;
      await execFileAsync('tar', [
        '-xzf',
        tarball,
        '-C',
        staging,
        `--strip-components=${strip}`,
        dynamoDbLocalPackage.emulatorPath,
      ]);
      await access(join(staging, 'DynamoDBLocal.jar'));
      await access(join(staging, 'DynamoDBLocal_lib'));
      await writeFile(join(staging, completeMarker), `${dynamoDbLocalPackage.integrity}\n`);
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
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    log(`DynamoDB Local cached in ${target}`);
    return target;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function isComplete(dir: string): Promise<boolean> {
  try {
    const marker = await readFile(join(dir, completeMarker), 'utf8');
    return marker.trim() === dynamoDbLocalPackage.integrity;
  } catch {
    return false;
  }
}

/** The npm/SRI form `sha512-<base64>` of a file's SHA-512. */
async function sha512Integrity(file: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha512-${hash.digest('base64')}`;
}

if (import.meta.main) {
  const dir = await fetchDynamoDbLocal({ log: (message) => console.log(message) });
  console.log(dir);
}
