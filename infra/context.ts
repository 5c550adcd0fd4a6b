import type { Node } from 'constructs';
import { optionNames } from './deployment-options.js';
import {
  DeploymentOptionError,
  type DeploymentSettings,
  parseDeploymentOptions,
} from './deployment-settings.js';

/**
 * Reads the deployment's options from CDK context (`-c name=value`, or cdk.json's "context") and
 * refuses a key it does not know, naming the nearest option, so a typo such as `hashmode` fails
 * the synth instead of silently dropping the required hash. Only keys shaped like ours (a plain
 * camelCase word) are judged: the CDK's own keys (`@aws-cdk/...` feature flags,
 * `aws:cdk:...`, `acknowledged-issue-numbers`, lookups such as `availability-zones:...`) all
 * carry a `@`, `:`, `/` or `-`.
 */
export function readDeploymentContext(node: Pick<Node, 'getAllContext'>): DeploymentSettings {
  const context = node.getAllContext() as Record<string, unknown>;
  const unknown = Object.keys(context).filter(
    (key) => /^[A-Za-z][A-Za-z0-9_]*$/.test(key) && !(optionNames as string[]).includes(key),
  );
  if (unknown.length > 0) {
    const named = unknown.map((key) => `"${key}" (did you mean "${nearestOption(key)}"?)`);
    throw new DeploymentOptionError(
      `Unknown context key ${named.join(', ')}. Known options: ${optionNames.join(', ')}`,
    );
  }
  return parseDeploymentOptions(
    Object.fromEntries(optionNames.map((name) => [name, context[name]])),
  );
}

/** The declared option closest to a key, by edit distance ignoring case; the first on a tie. */
export function nearestOption(key: string): string {
  const distanceTo = (name: string) => editDistance(key.toLowerCase(), name.toLowerCase());
  return optionNames.reduce((best, name) => (distanceTo(name) < distanceTo(best) ? name : best));
}

/**
 * Levenshtein distance: insertions, deletions and substitutions, one row of the table at a time.
 * The cells are walked as values, so there is no index that could fall outside a row.
 */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  let distance = b.length;
  for (let i = 0; i < a.length; i++) {
    let diagonal = i;
    let left = i + 1;
    const current = [left];
    for (const [j, above] of previous.slice(1).entries()) {
      left = Math.min(above + 1, left + 1, diagonal + (a[i] === b[j] ? 0 : 1));
      diagonal = above;
      current.push(left);
    }
    previous = current;
    distance = left;
  }
  return distance;
}
