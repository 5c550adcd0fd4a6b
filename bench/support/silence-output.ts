/**
 * Discards what the receivers write to stdout and stderr (a log line per callback, EMF metrics)
 * while a measurement runs: the lines are still formatted, which is handler work, but neither
 * the terminal's speed nor the benchmark's own output gets mixed into the figures. Returns the
 * function that restores both streams.
 */
export function silenceOutput(): () => void {
  const stdout = process.stdout.write;
  const stderr = process.stderr.write;
  const discard = (() => true) as typeof process.stdout.write;
  process.stdout.write = discard;
  process.stderr.write = discard;
  return () => {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  };
}
