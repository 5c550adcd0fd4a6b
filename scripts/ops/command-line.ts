import type { Command } from 'commander';
/** The options every command that reads the table takes. */
export function withTableOptions(command: Command): Command {
  return command
    .option('--table <name>', 'a deployed table (usual AWS_REGION / AWS_PROFILE / credentials)')
    .option(
      '--endpoint <url>',
      'a DynamoDB-compatible endpoint (default AWS_ENDPOINT_URL_DYNAMODB); else local mode data',
    );
}
