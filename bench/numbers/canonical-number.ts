/**
 * What reading numbers by value costs per callback: `canonicalNumber` (exact plain form by string
 * arithmetic) against the check it replaced (a plain-decimal regex and a digit count on the
 * source), on the same inputs in the same run. Prints µs per number and the ratio.
 *
 *   npx tsx bench/numbers/canonical-number.ts
 */
import { Bench } from 'tinybench';
import { canonicalNumber } from '../../lambda/json/canonical-number.js';

const forms = {
  'plain integer (250075)': '250075',
  'plain decimal (1050.70)': '1050.70',
  "Jackson's exponent (1.0E7)": '1.0E7',
  "Python's exponent (1e+16)": '1e+16',
  '38-digit integer': '1'.repeat(38),
};

/** The check before numbers were read by value: plain decimals only, digits counted. */
const plainDecimal = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;
function previousCheck(source: string): string | undefined {
  return plainDecimal.test(source) && source.replace(/\D/g, '').length <= 38 ? source : undefined;
}

let sink = 0;
const bench = new Bench({ time: 300, warmupTime: 100 });
for (const [name, source] of Object.entries(forms)) {
  bench.add(`previous: ${name}`, () => {
    sink += previousCheck(source)?.length ?? 0;
  });
  bench.add(`canonical: ${name}`, () => {
    sink += canonicalNumber(source)?.plain.length ?? 0;
  });
}
await bench.run();

const microseconds = (name: string) => {
  const task = bench.getTask(name);
  const mean = task?.result && 'latency' in task.result ? task.result.latency.mean : Number.NaN;
  return mean * 1000;
};
console.log('number form                       previous µs  canonical µs  ratio');
for (const name of Object.keys(forms)) {
  const before = microseconds(`previous: ${name}`);
  const after = microseconds(`canonical: ${name}`);
  console.log(
    `${name.padEnd(32)}  ${before.toFixed(3).padStart(11)}  ${after.toFixed(3).padStart(12)}  ${(after / before).toFixed(1).padStart(5)}×`,
  );
}
if (sink < 0) console.log(sink);
