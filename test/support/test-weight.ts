import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * What makes a test file heavy: a DynamoDB engine, a browser, a synthesized stack or a child
 * process, known by what it imports rather than by a list that would drift.
 */
const needsMore =
  /(support|\.)\/(engines|console-browser|local-cli|crashing-command|dynamodb-local-stream)\.js|node:child_process|\bsynth\b|\bspawn\(|\bexecFile\b|startDynalite|startDynamoDbLocal|playwright/;

/** Whether a test file, or a test helper it imports (followed through test/), needs more. */
export function heavy(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (needsMore.test(text)) return true;
  return [...text.matchAll(/from '(\.[^']+)\.js'/g)]
    .map(([, path]) => join(dirname(file), `${path}.ts`))
    .some(
      (imported) => imported.startsWith('test/') && existsSync(imported) && heavy(imported, seen),
    );
}

/**
 * Heavy files first, then the quick ones to fill in beside them. Vitest orders by the last run's
 * durations, or by file size where it has none (a fresh clone, CI): a small, slow file such as
 * the `cdk synth` tests then started last and ran alone at the end.
 */
export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isHeavy = new Map(
      sorted.map((file) => [file, heavy(relative(process.cwd(), file.moduleId))]),
    );
    return [
      ...sorted.filter((file) => isHeavy.get(file)),
      ...sorted.filter((f) => !isHeavy.get(f)),
    ];
  }
}
