import type { Node } from 'constructs';
import {
  DeploymentOptionError,
  type DeploymentSettings,
  optionNames,
  parseDeploymentOptions,
} from './deployment-options.js';

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

/** The declared option closest to a key, by edit distance ignoring case. */
export function nearestOption(key: string): string {
  let best: string = optionNames[0] ?? '';
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of optionNames) {
    const distance = editDistance(key.toLowerCase(), name.toLowerCase());
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
