import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { BenchmarkResults } from '../benchmark.js';
import { repositoryRoot } from '../cold-start/bundle.js';
import { chartSvg } from './chart.js';
import { conditions, markdownReport, outcomesReport } from './markdown.js';

export interface WrittenResults {
  readonly markdown: string;
  readonly files: readonly string[];
}

/** `latest.md` (table and conditions), `latest.json` (everything measured), `benchmark.svg`. */
export async function writeResults(
  results: BenchmarkResults,
  outDir: string,
): Promise<WrittenResults> {
  await mkdir(outDir, { recursive: true });
  const markdown =
    `${markdownReport(results)}\nStatus and DynamoDB commands per delivery, DynamoDB Local:\n\n` +
    `${outcomesReport(results)}\n${conditions(results)}\n`;
  const files = {
    markdown: join(outDir, 'latest.md'),
    json: join(outDir, 'latest.json'),
    chart: join(outDir, 'benchmark.svg'),
  };
  await writeFile(files.markdown, `# Benchmark results\n\n${markdown}`);
  await writeFile(files.json, `${JSON.stringify(results, withRelativePaths, 2)}\n`);
  await writeFile(files.chart, chartSvg(results));
  return { markdown, files: Object.values(files) };
}

/** Paths in the JSON relative to the repository, so results from any checkout read alike. */
function withRelativePaths(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.startsWith(repositoryRoot)
    ? relative(repositoryRoot, value)
    : value;
}
