/**
 * `npm run console:screenshots`: a 1280×800 PNG of each console view in docs/console/, over a
 * throwaway local mode (in memory) that has received a realistic morning of callbacks: payments,
 * a duplicate, a conflict and refused deliveries. Run it after a view changes; README.md shows
 * the images.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { commandProgram, runProgram } from '../cli/command-program.js';
import { sections } from '../console/html/layout.js';
import { callbackBody, sampleTransaction } from '../gateway/gateway-callback.js';
import { startLocalServer } from '../local/server.js';

const program = commandProgram(
  'console:screenshots',
  'Save a 1280×800 screenshot of each console view in docs/console/.',
  { ok: 'every view saved' },
)
  .option('--out <folder>', 'where the PNGs go', 'docs/console')
  .action(shoot);

const key = 'screenshot-key-0123456789abcdef';
const names = [
  ['deniz.kaya', 'Çağrı', 'Öztürk'],
  ['ayse.demir', 'Ayşe', 'Demir'],
  ['mehmet.yilmaz', 'Mehmet', 'Yılmaz'],
  ['elif.sahin', 'Elif', 'Şahin'],
  ['can.aydin', 'Can', 'Aydın'],
] as const;

async function shoot(options: { out: string }): Promise<void> {
  // The receiver logs each callback as the function does; here they would bury the file list.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'ERROR';
  const server = await startLocalServer({
    dataDir: ':memory:',
    port: 0,
    apiKeys: key,
    console: { port: 0 },
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const conflicted = await sendMorning(server.url);
    const console = server.console;
    if (!console) throw new Error('local mode started without its console');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(console.url);
    await mkdir(options.out, { recursive: true });
    const shots = [
      ...sections.map((section) => ({ path: section.path, name: section.path.slice(1) })),
      { path: `/transactions/${encodeURIComponent(conflicted)}`, name: 'transaction' },
      // The search box's answer: a reference's start, as an operator types it on the phone.
      { path: '/transactions?q=ord-2026-11-411', name: 'search' },
    ];
    const missing: string[] = [];
    for (const shot of shots) {
      const answer = await page.goto(`${console.origin}${shot.path}`);
      if (answer?.status() !== 200) {
        missing.push(`${shot.path} (${answer?.status() ?? 'no answer'})`);
        continue;
      }
      // Charts and live lists draw after load.
      await page.waitForTimeout(1_000);
      const file = join(options.out, `${shot.name}.png`);
      await page.screenshot({ path: file });
      process.stdout.write(`${file}\n`);
    }
    if (missing.length > 0) throw new Error(`no screenshot of ${missing.join(', ')}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** Callbacks as a gateway sends them on a busy morning; returns the conflicted reference. */
async function sendMorning(url: string): Promise<string> {
  const post = (body: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body,
    });
  const sent: string[] = [];
  const transactions: ReturnType<typeof sampleTransaction>[] = [];
  for (let n = 0; n < 24; n += 1) {
    const [username, firstName, lastName] = names[n % names.length] as (typeof names)[number];
    const transaction = sampleTransaction({
      id: String(1_048_600 + n),
      username,
      firstName,
      lastName,
      amount: String(5_000 + ((n * 7_919) % 250_000)),
      type: n % 3 === 0 ? 'Withdrawal' : 'Deposit',
      status: n % 5 === 4 ? 'Reject' : 'Confirm',
      message: n % 5 === 4 ? 'Hesap doğrulanamadı' : 'Ödeme onaylandı',
      reference: `ord-2026-11-${String(4100 + n)}`,
    });
    const body = callbackBody(transaction, key);
    await expect(post(body), [200, 204]);
    sent.push(body);
    transactions.push(transaction);
  }
  // The gateway retries one: a duplicate, answered as recorded.
  await expect(post(sent[3] as string), [200, 204]);
  // It sends another with the same reference and a different amount: a conflict.
  const original = transactions[7] as (typeof transactions)[number];
  const reference = original.reference;
  await expect(post(callbackBody({ ...original, amount: '99900' }, key)), [409]);
  // Refusals: a body altered after signing, and one missing its reference.
  const tampered = (sent[5] as string).replace(/"amount":\d+/, '"amount":1');
  await expect(post(tampered), [400, 401, 403, 422]);
  await expect(post(tampered), [400, 401, 403, 422]);
  await expect(post('{"id":1,"username":"x"}'), [400, 422]);
  return reference;
}

async function expect(answer: Promise<Response>, statuses: readonly number[]): Promise<void> {
  const { status } = await answer;
  if (!statuses.includes(status)) {
    throw new Error(`the receiver answered ${status}, expected one of ${statuses.join(', ')}`);
  }
}

await runProgram(program, 'console:screenshots');
process.exit();
