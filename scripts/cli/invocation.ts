/**
 * How the person typed the command, so usage lines and hints repeat it: `callback-receiver
 * query` through the executable, `npm run query --` through npm (which runs the same executable,
 * or the source under tsx).
 */
export const binName = 'callback-receiver';

let throughBin = false;

/** Called by the executable before it loads a command. */
export function invokedThroughBin(): void {
  throughBin = true;
}

/** The words before a command's own arguments, as the person typed them. */
export function commandLine(name: string, env: NodeJS.ProcessEnv = process.env): string {
  // npm run sets the script's name: `npm run query` runs the executable too.
  if (!throughBin || env.npm_lifecycle_event === name) return `npm run ${name} --`;
  return `${binName} ${name}`;
}
