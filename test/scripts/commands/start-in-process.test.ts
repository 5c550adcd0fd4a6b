import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../support/in-process-cli.js';

/**
 * `npm start` in this process, from its banner to a stop signal: the signal listeners it adds are
 * kept as it adds them (runCommand drops them when its top level ends, the server still running)
 * and one is called, as SIGTERM would; its process.exit is held, so the worker goes on.
 */
afterEach(() => {
  vi.restoreAllMocks();
});

async function startThenStop(env: Record<string, string>) {
  const stops: ((why: string) => void)[] = [];
  const on = process.on.bind(process);
  vi.spyOn(process, 'on').mockImplementation(((event: string, listener: () => void) => {
    if (event === 'SIGTERM') stops.push(listener);
    return on(event, listener);
  }) as typeof process.on);
  const started = await runCommand('start', ['--in-memory', '--no-console'], {
    PORT: '0',
    CALLBACK_API_KEYS: 'in-process-key',
    ...env,
  });
  vi.mocked(process.on).mockRestore();
  const stop = stops.at(-1);
  if (!stop) throw new Error(`start added no SIGTERM listener: ${started.stderr}`);

  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const exited = new Promise<number | string | null | undefined>((resolve) => {
    vi.spyOn(process, 'exit').mockImplementation(((code) => {
      resolve(code);
    }) as typeof process.exit);
  });
  stop('SIGTERM');
  // npm relays the same signal again at once: the same stop, not a forced exit.
  stop('SIGTERM');
  const code = await exited;
  return { started, stopped: { code, stderr } };
}

describe('npm start, in-process', () => {
  it('prints its banner, then on SIGTERM finishes in-flight callbacks and exits 0 once', async () => {
    const { started, stopped } = await startThenStop({});

    expect(started.code).toBe(0);
    expect(started.stderr).toBe('');
    expect(started.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/callback/);
    expect(stopped).toEqual({
      code: 0,
      stderr: 'SIGTERM: finishing callbacks in flight, then stopping…\nStopped.\n',
    });
  });

  it('warns on stderr when HOST serves beyond this machine', async () => {
    const { started, stopped } = await startThenStop({ HOST: '0.0.0.0' });

    expect(started.stderr).toBe(
      'Warning: HOST=0.0.0.0 serves plain HTTP to the network; anyone who can reach this port can send callbacks with the key.\n',
    );
    expect(stopped.code).toBe(0);
  });
});
