import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { HashMode } from '../../lambda/config/config.js';
import { DynamoDbRefusalStore } from '../../lambda/refusals/dynamodb-refusal-store.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import type { ConsoleContext } from '../../scripts/console/console-context.js';
import { type ConsoleServer, startConsole } from '../../scripts/console/console-server.js';
import { callbackResource, startGatewayServer } from '../../scripts/local/gateway-server.js';
import { consoleRequest } from './console-request.js';
import {
  createTestRefusalsTable,
  createTestTable,
  type Engine,
  type TestTable,
} from './engines.js';
import { callbackEvent, signed, specKey } from './fixtures.js';
import { receiverWith } from './receiver.js';

/**
 * Debian's `chromium` package (README's Install; `.ci/run` installs it): Playwright's own browser
 * download cannot be fetched here. `CHROMIUM_PATH` points elsewhere on another system.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** `extraArgs`: more switches, e.g. `--host-resolver-rules` to point a name at 127.0.0.1. */
/**
 * One Chromium for a test file: launched in its `beforeAll`, closed in its `afterAll`. The value
 * stands for the browser from the first test on (it forwards to the one launched).
 */
export function sharedChromium(): Browser {
  let launched: Browser | undefined;
  beforeAll(async () => {
    launched = await launchChromium();
  });
  afterAll(() => launched?.close());
  return new Proxy({} as Browser, {
    get(_target, name) {
      if (launched === undefined) throw new Error('Chromium starts in beforeAll: use it in tests');
      const value: unknown = Reflect.get(launched, name);
      return typeof value === 'function' ? value.bind(launched) : value;
    },
  });
}

export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      ...extraArgs,
    ],
  });
}

/** The console over fresh tables on `engine`, with the real receiver recording into them. */
export interface TestConsole {
  readonly server: ConsoleServer;
  readonly table: TestTable;
  readonly refusals: TestTable;
  /** Sends one callback through the receiver (as API Gateway would); returns its status. */
  deliver(fields: Record<string, unknown>, headers?: Record<string, string>): Promise<number>;
  /**
   * Sends `body` exactly as given (no signing) through a receiver over the same tables, in
   * `hashMode` (default `if-present`, as `deliver`'s): a stricter one makes refusals to fix.
   */
  deliverBody(
    body: string,
    options?: { headers?: Record<string, string>; hashMode?: HashMode },
  ): Promise<number>;
  /**
   * The receiver as an HTTP endpoint (local mode's API Gateway stand-in), the one the console
   * resubmits to; absent when started with `receiver: false`.
   */
  readonly receiverUrl?: string;
  /** A page signed in through a fresh one-time link, at `path`. */
  signedIn(browser: Browser, path?: string): Promise<Page>;
  close(): Promise<void>;
}

export interface TestConsoleOptions
  extends Partial<
    Pick<ConsoleContext, 'mode' | 'allowActions' | 'activity' | 'operator' | 'eventFiles'>
  > {
  /** Give the console the test receiver's URL and key to resubmit to. @default true */
  readonly receiver?: boolean;
}

export async function startTestConsole(
  engine: Engine,
  options: TestConsoleOptions = {},
): Promise<TestConsole> {
  const table = await createTestTable(engine);
  const refusals = await createTestRefusalsTable(engine);
  const store = new DynamoDbTransactionStore(table.client, table.tableName);
  const refusalStore = new DynamoDbRefusalStore(refusals.client, refusals.tableName);
  const receive = receiverWith(store, { refusals: refusalStore });
  const gateway =
    options.receiver === false
      ? undefined
      : await startGatewayServer({
          invoke: (event, context) => receive(event, context),
          host: '127.0.0.1',
          port: 0,
          stage: 'local',
        });
  const receiverUrl = gateway && `http://127.0.0.1:${gateway.port}${callbackResource}`;
  const server = await startConsole({
    tables: {
      client: table.client,
      tableName: table.tableName,
      refusalsTableName: refusals.tableName,
      description: `test tables on ${engine}`,
    },
    mode: options.mode ?? 'local',
    allowActions: options.allowActions ?? true,
    ...(options.activity ? { activity: options.activity } : {}),
    ...(options.eventFiles ? { eventFiles: options.eventFiles } : {}),
    ...(receiverUrl ? { receiver: { url: receiverUrl, apiKey: specKey } } : {}),
    ...(options.operator ? { operator: options.operator } : {}),
  });
  return {
    server,
    table,
    refusals,
    ...(receiverUrl ? { receiverUrl } : {}),
    async deliver(fields, headers) {
      const body = signed(fields as Parameters<typeof signed>[0]);
      const answer = await receive(callbackEvent(body, headers ? { headers } : {}));
      return answer.statusCode;
    },
    async deliverBody(body, { headers, hashMode = 'if-present' } = {}) {
      const strict = receiverWith(store, { refusals: refusalStore, hashMode });
      const answer = await strict(callbackEvent(body, headers ? { headers } : {}));
      return answer.statusCode;
    },
    async signedIn(browser, path = '/') {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      // The link is traded for its cookie here rather than followed, which would render the home
      // page first (console-security.test.ts follows it as a browser does).
      await page.context().addCookies([await sessionCookie(server.signInUrl())]);
      await page.goto(`${server.origin}${path}`);
      return page;
    },
    async close() {
      await server.close();
      await gateway?.close();
      await Promise.all([table.drop(), refusals.drop()]);
    },
  };
}

type Cookie = Parameters<BrowserContext['addCookies']>[0][number];

/** The session cookie a sign-in link sets, asked for from here as a browser would follow it. */
async function sessionCookie(signInUrl: string): Promise<Cookie> {
  const login = await consoleRequest(signInUrl);
  const setCookie = [login.headers['set-cookie'] ?? []].flat()[0];
  if (login.status !== 303 || setCookie === undefined) {
    throw new Error(`sign-in answered ${login.status} without a cookie`);
  }
  const pair = setCookie.split(';')[0] ?? '';
  const name = pair.slice(0, pair.indexOf('='));
  const value = pair.slice(pair.indexOf('=') + 1);
  return { name, value, url: new URL(signInUrl).origin, httpOnly: true, sameSite: 'Strict' };
}
