import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { cleanEnvironment, node24, repositoryRoot } from './node24.js';
import type { ServerReady } from './serve.js';
import type { SubjectName } from './subjects.js';

export interface ServerProcess extends ServerReady {
  stop(): Promise<void>;
}

/** Starts bench/support/serve.ts for `subject` in a fresh Node 24 process, once it listens. */
export async function startServer(
  subject: SubjectName,
  env: Record<string, string>,
): Promise<ServerProcess> {
  const child = spawn(
    node24(),
    ['--import', 'tsx', join(repositoryRoot, 'bench/support/serve.ts'), subject],
    {
      cwd: repositoryRoot,
      env: cleanEnvironment(env),
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  // Errors are logged to stderr (a 503 in a burst is expected): kept only to explain a crash.
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-4_000);
  });
  const exited = once(child, 'exit');
  const ready = await new Promise<ServerReady>((resolve, reject) => {
    let text = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0] as string) as ServerReady);
    });
    void exited.then(([code]) =>
      reject(new Error(`${subject} server exited with ${code} before listening:\n${errors}`)),
    );
  });
  return {
    ...ready,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
