import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BenchmarkResults } from '../benchmark.js';
import { repositoryRoot } from '../cold-start/bundle.js';
import { conditions, markdownReport, outcomesReport } from './markdown.js';

/** The table, what each receiver answered, and the conditions of the run. */
export function markdown(results: BenchmarkResults): string {
  return (
    `${markdownReport(results)}\nStatus and DynamoDB commands per delivery, DynamoDB Local:\n\n` +
    `${outcomesReport(results)}\n${conditions(results)}\n`
  );
}

/** `latest.md` (the Markdown above) and `latest.json` (everything measured) into `outDir`. */
export async function writeResults(results: BenchmarkResults, outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files = { markdown: join(outDir, 'latest.md'), json: join(outDir, 'latest.json') };
  await writeFile(files.markdown, `# Benchmark results\n\n${markdown(results)}`);
  await writeFile(files.json, `${JSON.stringify(results, withRelativePaths, 2)}\n`);
  return Object.values(files);
}

/** Paths in the JSON relative to the repository, so results from any checkout read alike. */
function withRelativePaths(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.startsWith(repositoryRoot)
    ? relative(repositoryRoot, value)
    : value;
}
