/**
 * One receiver behind the local API Gateway stand-in, in a process of its own so the load
 * generator does not share its event loop: `ours` is local mode's server (the real receiver),
 * `baseline` the baseline's Lambda entry behind the same HTTP-to-event adapter. Run as a script
 * (by startServer) it serves, configured by the environment, and writes where it listens to file
 * descriptor 3 (stdout carries the logs).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { HashMode } from '../../lambda/config/config.js';
import { callbackResource, startGatewayServer } from '../../scripts/local/gateway-server.js';
import { startLocalServer } from '../../scripts/local/server.js';
import { cleanEnvironment, node24, repositoryRoot } from './node24.js';
import type { SubjectName } from './subjects.js';

/**
 * What the parent learns once the server listens: where ours writes, to check the table, and its
 * run folder, where the embedded engine's credentials are.
 */
type Ready = { url: string; endpoint?: string; tableName?: string; dataDir?: string };

/** Starts this file for `subject` in a fresh Node 24 process; resolves once it listens. */
export async function startServer(subject: SubjectName, env: Record<string, string>) {
  const child = spawn(node24(), ['--import', 'tsx', fileURLToPath(import.meta.url), subject], {
    cwd: repositoryRoot,
    env: cleanEnvironment(env),
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  // Errors are logged to stderr (a 503 in a burst is expected): kept only to explain a crash.
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-4_000);
  });
  const exited = once(child, 'exit');
  const ready = await new Promise<Ready>((resolve, reject) => {
    let text = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (text.includes('\n')) resolve(JSON.parse(text.split('\n')[0] as string) as Ready);
    });
    void exited.then(([code]) =>
      reject(new Error(`${subject} server exited with ${code} before listening:\n${errors}`)),
    );
  });
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { ...ready, stop };
}

async function serve(subject: string | undefined, env: NodeJS.ProcessEnv) {
  if (subject === 'ours') {
    const server = await startLocalServer({
      port: 0,
      dataDir: ':memory:',
      apiKeys: env.CALLBACK_API_KEYS as string,
      tableName: env.TABLE_NAME,
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
      hashMode: env.HASH_MODE as HashMode | undefined,
    });
    const { url, tableName } = server;
    const ready = { url, tableName, endpoint: server.engine.endpoint, dataDir: server.runDir };
    return { ready, stop: server.stop };
  }
  type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<unknown>;
  const { handler } = (await import('../baseline/handler.js')) as { handler: Handler };
  const gateway = await startGatewayServer({
    invoke: handler,
    host: '127.0.0.1',
    port: 0,
    stage: 'local',
  });
  return {
    ready: { url: `http://127.0.0.1:${gateway.port}${callbackResource}` },
    stop: gateway.close,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { ready, stop } = await serve(process.argv[2], process.env);
  writeSync(3, `${JSON.stringify(ready)}\n`);
  process.once('SIGTERM', () => {
    void stop().finally(() => process.exit(0));
  });
}
