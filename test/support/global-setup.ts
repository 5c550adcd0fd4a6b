/**
 * Vitest global setup: starts the DynamoDB engines once per run and hands their endpoints to the
 * tests (see test/support/engines.ts).
 *
 * DynamoDB Local is skipped only when there is no Java, with a warning; with
 * REQUIRE_DYNAMODB_LOCAL=1 (CI) that fails the run instead. A failed start always fails it.
 */
import type { TestProject } from 'vitest/node';
import { buildBin } from '../../scripts/cli/build-bin.js';
import { findJava, startDynamoDbLocal } from '../../scripts/dev/dynamodb-local/start.js';
import { startDynalite } from '../../scripts/local/engine/dynalite.js';
import type { RunningEngine } from '../../scripts/local/engine/local-engine.js';
import type { EngineEndpoint } from './engines.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The engines started for this run, dynalite first. */
    dynamoDbEngines: EngineEndpoint[];
  }
}

const running: RunningEngine[] = [];

export async function setup(project: TestProject): Promise<void> {
  try {
    // The npm scripts run the built executable: built from the source as it is now, so a test
    // that spawns a command never runs yesterday's code. A build that fails (a file mid-edit)
    // warns and leaves the last build: only the tests that spawn commands can be affected.
    await buildBin().catch((error: unknown) =>
      warn(
        'callback-receiver NOT rebuilt: tests that spawn commands run the last build.',
        String(error),
      ),
    );
    const engines: EngineEndpoint[] = [];

    const dynalite = await startDynalite();
    running.push(dynalite);
    engines.push({ name: 'dynalite', endpoint: dynalite.endpoint });

    const java = await findJava();
    if (java === undefined) {
      if (process.env.REQUIRE_DYNAMODB_LOCAL === '1') {
        throw new Error('REQUIRE_DYNAMODB_LOCAL=1 but there is no `java` (PATH or JAVA_HOME)');
      }
      warn(
        'DynamoDB Local SKIPPED: no `java` found (PATH or JAVA_HOME).',
        'Integration tests run on dynalite ONLY, which does not return the old item on a failed',
        'condition. Install Java 17+ to test on both engines (CI sets REQUIRE_DYNAMODB_LOCAL=1).',
      );
    } else {
      const started = performance.now();
      const local = await startDynamoDbLocal({ java, log: (message) => console.log(message) });
      running.push(local);
      engines.push({ name: 'dynamodb-local', endpoint: local.endpoint });
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`DynamoDB Local ready on ${local.endpoint} after ${seconds} s`);
    }

    project.provide('dynamoDbEngines', engines);
  } catch (error) {
    // Stop what did start now, not whenever vitest closes (teardown is safe to run twice).
    await teardown();
    throw error;
  }
}

export async function teardown(): Promise<void> {
  const engines = running.splice(0).reverse();
  await Promise.all(engines.map((engine) => engine.stop()));
}

function warn(...lines: string[]): void {
  const rule = '!'.repeat(78);
  process.stderr.write(`\n${rule}\n${lines.map((line) => `!! ${line}`).join('\n')}\n${rule}\n\n`);
}
