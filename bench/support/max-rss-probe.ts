/**
 * Preloaded (`--import`) into a command the benchmark runs: on exit, writes the process's peak
 * resident set size in bytes to the file `BENCH_MAX_RSS_FILE` names. The kernel's own high-water
 * mark (getrusage), so no sampling can miss a short peak.
 */
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_MAX_RSS_FILE;
if (file) {
  process.on('exit', () => {
    // maxRSS is in kilobytes.
    writeFileSync(file, String(process.resourceUsage().maxRSS * 1024));
  });
}
