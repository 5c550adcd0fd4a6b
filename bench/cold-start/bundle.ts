import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The three bundles the cold start compares, by entry module. */
export const bundleEntries = {
  ours: 'lambda/receiver.ts',
  baseline: 'bench/baseline/handler.ts',
  floor: 'bench/floor/handler.ts',
} as const;
export type BundleName = keyof typeof bundleEntries;

export interface Bundle {
  readonly name: BundleName;
  readonly file: string;
  /** Minified size as deployed, in bytes. */
  readonly bytes: number;
  /** Bytes in the output per package (or repository folder), largest first. */
  readonly composition: readonly { readonly source: string; readonly bytes: number }[];
}

/**
 * Bundles an entry exactly as the CDK stack does (infra/constructs/receiver-function.ts,
 * `NodejsFunction` bundling): one ESM file, `module` builds first, everything bundled (no
 * external SDK), minified, Node 24, no source map, and a `require` for CommonJS dependencies.
 */
export async function bundle(name: BundleName, outDir: string): Promise<Bundle> {
  const dir = join(outDir, name);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'index.mjs');
  const result = await build({
    entryPoints: [join(repositoryRoot, bundleEntries[name])],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    mainFields: ['module', 'main'],
    target: 'node24',
    minify: true,
    sourcemap: false,
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0];
  if (!output) throw new Error(`esbuild wrote no output for ${name}`);
  return { name, file, bytes: output.bytes, composition: composition(output.inputs) };
}

function composition(inputs: Record<string, { bytesInOutput: number }>) {
  const bySource = new Map<string, number>();
  for (const [path, input] of Object.entries(inputs)) {
    const source =
      /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.split('/').slice(0, 2).join('/');
    bySource.set(source, (bySource.get(source) ?? 0) + input.bytesInOutput);
  }
  return [...bySource.entries()]
    .map(([source, bytes]) => ({ source, bytes }))
    .sort((a, b) => b.bytes - a.bytes);
}
