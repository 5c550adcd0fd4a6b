/**
 * `npx tsx bench/measure/hash-cost.ts`: the CPU the hash check costs per request (candidate texts
 * built, each hashed and compared), against one SHA-256 of the same body in the same run: the
 * cost of a receiver that tried a single text. Bodies: a usual callback in both wire forms, and
 * the worst case, a 64 KiB pretty-printed body holding every escape class (32 candidate texts).
 * Figures are medians of process CPU time; the µs clock makes the smallest ones coarse.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Bench } from 'tinybench';
import { hashedTextCandidates, verifyHash } from '../../lambda/callback/callback-hash.js';
import { maxBodyBytes } from '../../lambda/http/read-body.js';
import { parseStrictJson } from '../../lambda/json/strict-json.js';
import { signedBody } from '../../scripts/gateway/gateway-signer.js';
import { benchKey, callbackFields } from '../support/deliveries.js';

/** Every character a policy treats apart, with an escaped `a` and `/` no policy writes. */
const everyClass = `\\u0061/\\/<>&'\\"\\\\+\`\\u001f\\n\u2028ç💳\x7f `;

function worstCase(): string {
  const head = '{\n  "message": "';
  const tail = `",\n  "hash": "${'0'.repeat(64)}"\n}`;
  let message = '';
  while (Buffer.byteLength(head + message + everyClass + tail) <= maxBodyBytes)
    message += everyClass;
  return head + message + tail;
}

const bodies = {
  'callback, non-ASCII escaped (the gateway)': signedBody(callbackFields('bench-1'), benchKey),
  'callback, raw UTF-8': signedBody(callbackFields('bench-2'), benchKey, { wire: 'utf8' }),
  'worst case: 64 KiB, every escape class': worstCase(),
};

// Process CPU time (user + system, GC included), not wall time: other processes share the CPU.
const bench = new Bench({
  now: () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  },
  time: 1000,
  warmupTime: 200,
});
const rows: { body: string; bytes: number; texts: number }[] = [];
for (const [name, body] of Object.entries(bodies)) {
  const document = parseStrictJson(body);
  const span = document.memberSpans.get('hash');
  const hash = (document.value as { hash: string }).hash;
  const texts = hashedTextCandidates(body, span).length;
  rows.push({ body: name, bytes: Buffer.byteLength(body), texts });
  bench.add(`${name}: candidates + verify`, () => {
    verifyHash(hashedTextCandidates(body, span), benchKey, hash);
  });
  const received = Buffer.from(hash, 'hex');
  bench.add(`${name}: one SHA-256 (baseline)`, () => {
    timingSafeEqual(
      createHash('sha256')
        .update(body + benchKey, 'utf8')
        .digest(),
      received,
    );
  });
}
await bench.run();

function median(name: string): number {
  const result = bench.getTask(name)?.result;
  return result?.state === 'completed' ? (result.latency.p50 ?? Number.NaN) : Number.NaN;
}
const lines = [
  '| Body | Bytes | Texts hashed | Hash check, median µs | One SHA-256, median µs | Ratio |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(({ body, bytes, texts }) => {
    const ours = median(`${body}: candidates + verify`) * 1000;
    const one = median(`${body}: one SHA-256 (baseline)`) * 1000;
    return `| ${body} | ${bytes} | ${texts} | ${ours.toFixed(1)} | ${one.toFixed(1)} | ${(ours / one).toFixed(1)}× |`;
  }),
];
process.stdout.write(`${lines.join('\n')}\n`);
