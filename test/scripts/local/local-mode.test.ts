import { execFile } from 'node:child_process';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../../scripts/gateway/delivery-plan.js';
import { planDeliveries } from '../../../scripts/gateway/delivery-plan.js';
import { seededRandom } from '../../../scripts/gateway/seeded-random.js';
import type { Summary } from '../../../scripts/gateway/summary.js';
import { runCommand } from '../../support/in-process-cli.js';
import {
  dataFolder,
  freePort,
  parseExact,
  type ServerProcess,
  startServer,
} from '../../support/local-cli.js';

/**
 * Local mode end to end, as a user runs it: `npm start`, then `npm run simulate` and `npm run
 * query` in another shell, a stop with Ctrl-C, and a restart on the same data folder.
 */

type Attributes = Record<string, unknown>;
interface GetOutput {
  transaction: Attributes | null;
  conflicts: Attributes[];
}

const key = 'e2e-3f1c9a7e52b84d0c9e6a1b2d4c8f7e01';
const seed = 'local-mode-e2e';
const simulation = { count: 120, duplicates: 0.2, conflicts: 0.05 };
// The simulator's plan for the seed, rebuilt here to know which references to look for.
const plan: Plan = planDeliveries(seededRandom(seed), simulation);
const originals = plan.deliveries.filter((delivery) => delivery.kind === 'original');
const conflicting = plan.deliveries.filter((delivery) => delivery.kind === 'conflicting');

describe('local mode (npm start, npm run simulate, npm run query)', () => {
  const folder = dataFolder('local-mode-');
  let env: Record<string, string>;
  let server: ServerProcess | undefined;

  const simulate = (...args: string[]) =>
    runCommand(
      'simulate',
      [
        // No key flag: the simulator reads CALLBACK_API_KEYS, as the server does.
        ...['--url', server?.url ?? '', '--seed', seed, '--json'],
        ...['--count', String(simulation.count), '--concurrency', '8'],
        ...[
          '--duplicates',
          String(simulation.duplicates),
          '--conflicts',
          String(simulation.conflicts),
        ],
        ...args,
      ],
      env,
    );
  const query = async <T>(...args: string[]) => {
    const result = await runCommand('query', [...args, '--format', 'json'], env);
    return { ...result, json: result.stdout.trim() ? parseExact<T>(result.stdout) : undefined };
  };
  /** `list --format json` is one document: its transactions are `items`. */
  const list = async (...args: string[]) => {
    const result = await query<{ items: Attributes[] }>('list', ...args);
    return { ...result, json: result.json?.items };
  };

  beforeAll(async () => {
    env = { DATA_DIR: folder.path, CALLBACK_API_KEYS: key, PORT: String(await freePort()) };
    server = await startServer(env);
  });

  it('records new callbacks, answers redeliveries as duplicates and refuses conflicting bodies', async () => {
    const result = await simulate();

    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as Summary;
    expect(summary).toMatchObject({
      sent: simulation.count,
      recorded: plan.originals,
      duplicates: plan.redeliveries,
      conflicts: plan.conflicting,
      rejected: 0,
      failed: 0,
    });
    expect(plan.redeliveries).toBeGreaterThan(0);
    expect(plan.conflicting).toBeGreaterThan(0);
    expect(summary.latencyMs.p99).toBeGreaterThan(0);
  });

  it('query get shows the recorded transaction and the conflicting delivery kept for audit', async () => {
    const contradicted = conflicting[0]?.transaction;
    if (!contradicted) throw new Error('the plan has no conflicting delivery');
    const original = originals.find((d) => d.transaction.reference === contradicted.reference);

    const { code, json } = await query<GetOutput>('get', contradicted.reference);

    expect(code).toBe(0);
    expect(json?.transaction).toMatchObject({
      record: 'transaction',
      reference: contradicted.reference,
      status: original?.transaction.status,
      id: original?.transaction.id,
      amount: original?.transaction.amount,
      firstName: original?.transaction.firstName,
    });
    expect(json?.conflicts).toHaveLength(1);
    expect(json?.conflicts[0]).toMatchObject({
      record: 'conflict',
      conflictOf: contradicted.reference,
      transaction: { status: contradicted.status, message: contradicted.message },
    });
  });

  it('query list --since returns every recorded transaction once, newest first, numbers exact', async () => {
    const today = new Date().toISOString().slice(0, 10);

    const { code, json } = await list('--since', today, '--limit', '1000');

    expect(code).toBe(0);
    const references = (json ?? []).map((item) => item.reference);
    expect(new Set(references)).toEqual(new Set(originals.map((d) => d.transaction.reference)));
    expect(references).toHaveLength(originals.length);
    const times = (json ?? []).map((item) => item.receivedAt as string);
    expect(times).toEqual([...times].sort().reverse());
    // Ids past 2^53 come back digit for digit.
    const big = originals.find((d) => d.transaction.id.length >= 19)?.transaction;
    expect(big, 'the plan has a 19-digit id').toBeDefined();
    expect(json?.find((item) => item.reference === big?.reference)?.id).toBe(big?.id);
  });

  it('query list --username returns only that user, newest first, filtered by --type', async () => {
    const username = originals[0]?.transaction.username as string;
    const expected = originals.filter(
      (d) => d.transaction.username === username && d.transaction.type === 'Deposit',
    );

    const { code, json } = await list('--username', username, '--type', 'deposit');

    expect(code).toBe(0);
    expect(json?.map((item) => item.reference).sort()).toEqual(
      expected.map((d) => d.transaction.reference).sort(),
    );
    expect(json?.every((item) => item.username === username && item.type === 'Deposit')).toBe(true);
    const times = (json ?? []).map((item) => item.receivedAt as string);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('unknown paths and other methods get API Gateway 403 Missing Authentication Token', async () => {
    const base = server?.url as string;
    const answers = await Promise.all([
      fetch(base),
      fetch(base, { method: 'PUT', body: '{}' }),
      fetch(base.replace('/callback', '/other'), { method: 'POST', body: '{}' }),
      fetch(`${base}/`, { method: 'POST', body: '{}' }),
    ]);

    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
      expect(await answer.json()).toEqual({ message: 'Missing Authentication Token' });
    }
  });

  it("the banner's curl line records a callback, the key in no argument list", async () => {
    const curl = /^ {2}(printf .* \| curl .*)$/m.exec(server?.stdout() ?? '')?.[1];
    expect(curl).toBeDefined();
    expect(server?.stdout()).not.toContain(key);

    // Pasted in the shell that started the server, where CALLBACK_API_KEYS is set.
    const { stdout } = await promisify(execFile)('sh', ['-c', `${curl} -sS`], {
      env: { ...process.env, CALLBACK_API_KEYS: key },
    });

    expect(stdout).toMatch(/^HTTP\/1\.1 204/);
    expect(stdout).toMatch(/x-callback-outcome: recorded/i);
  });

  it('Ctrl-C stops the server cleanly and frees the data folder', async () => {
    await server?.stop('SIGINT');

    expect(server?.stderr()).toMatch(/Stopped\./);
    await expect(access(join(folder.path, 'lock.json'))).rejects.toThrow();
  });

  it('query reads the data folder itself while no server runs', async () => {
    const reference = originals[1]?.transaction.reference as string;

    const { code, json, stderr } = await query<GetOutput>('get', reference);

    expect(code).toBe(0);
    expect(json?.transaction).toMatchObject({ reference });
    // An in-memory server would leave no trace in the folder: the reader is told what it read.
    expect(stderr).toMatch(/no local server is running on it.*--in-memory/s);
  });

  it('query get exits 1 for an unknown reference', async () => {
    const { code, json } = await query<GetOutput>('get', 'no-such-reference');

    expect(code).toBe(1);
    expect(json).toEqual({ transaction: null, history: [], conflicts: [] });
  });

  it('after a restart the data is still there: the same callbacks are now all duplicates', async () => {
    server = await startServer(env);

    const result = await simulate();

    const summary = JSON.parse(result.stdout) as Summary;
    expect(summary).toMatchObject({
      recorded: 0,
      duplicates: plan.originals + plan.redeliveries,
      conflicts: plan.conflicting,
      failed: 0,
    });
    const today = new Date().toISOString().slice(0, 10);
    const listed = await list('--since', today, '--limit', '1000');
    // The curl line's callback plus the simulated ones, each once.
    expect(listed.json).toHaveLength(originals.length + 1);
  });
});
