/** Commander's collector for a repeatable option: each `--compare` adds one value. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--compare name=file.mjs` values as the bundles the cold-start and memory measures run. */
export function compareBundles(pairs: readonly string[]): { name: string; file: string }[] {
  return pairs.map((pair) => {
    const [name, file] = pair.split('=');
    if (!name || !file) throw new Error(`--compare takes name=file.mjs, not ${pair}`);
    return { name, file };
  });
}
