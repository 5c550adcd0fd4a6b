import { deploymentOptions, optionNames } from './deployment-options.js';

/** The options table of docs/deploy.md, rendered from the one declaration (a test compares). */
export function optionsTable(): string {
  const rows = optionNames.map((name) => {
    const { type, default: fallback, meaning } = deploymentOptions[name];
    return `| \`${name}\` | ${type} | ${fallback} | ${meaning} |`;
  });
  return ['| option | type | default | what it does |', '|---|---|---|---|', ...rows].join('\n');
}
