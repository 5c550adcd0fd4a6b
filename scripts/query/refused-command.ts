import { Command, Option } from 'commander';
import { refusalJson, refusalTable } from './refusal-list.js';
import { listRefusals } from './refusal-queries.js';
import { type RefusalsTargetFlags, withRefusalsTable } from './refusals-target.js';
import { timeWindow } from './time-window.js';

interface RefusedFlags extends RefusalsTargetFlags {
  readonly format: 'table' | 'json';
  readonly since?: string;
  readonly reference?: string;
}

/** `query refused`: the kept refusals, newest last delivery first. */
export function refusedCommand(): Command {
  return new Command('refused')
    .description(
      'authenticated deliveries refused for their content (400, 403, 413, 415, 422), newest first',
    )
    .option('--since <ISO>', 'last delivered at or after; a date alone means midnight UTC')
    .option('--reference <reference>', 'only those whose body names this reference')
    .addOption(
      new Option('--format <format>', 'output format').choices(['table', 'json']).default('table'),
    )
    .option('--table <name>', 'a deployed refusals table (the stack output RefusalsTableName)')
    .option(
      '--endpoint <url>',
      'a DynamoDB-compatible endpoint (default AWS_ENDPOINT_URL_DYNAMODB)',
    )
    .action(async (flags: RefusedFlags) => {
      // Checked before anything is opened.
      const since =
        flags.since === undefined ? undefined : timeWindow(flags.since, undefined).since;
      const refusals = await withRefusalsTable(flags, (target) =>
        listRefusals(target.client, target.tableName, {
          ...(since !== undefined ? { since } : {}),
          ...(flags.reference !== undefined ? { reference: flags.reference } : {}),
        }),
      );
      process.stdout.write(
        flags.format === 'json' ? refusalJson(refusals) : refusalTable(refusals),
      );
    });
}
