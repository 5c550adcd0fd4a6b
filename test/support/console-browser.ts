import { type Browser, chromium, type Page } from 'playwright-core';
import { DynamoDbRefusalStore } from '../../lambda/refusals/dynamodb-refusal-store.js';
import { DynamoDbTransactionStore } from '../../lambda/storage/dynamodb-transaction-store.js';
import type { ConsoleContext } from '../../scripts/console/console-context.js';
import { type ConsoleServer, startConsole } from '../../scripts/console/console-server.js';
import {
  createTestRefusalsTable,
  createTestTable,
  type Engine,
  type TestTable,
} from './engines.js';
import { callbackEvent, signed } from './fixtures.js';
import { receiverWith } from './receiver.js';

/**
 * Debian's `chromium` package (README's Install; `.ci/run` installs it): Playwright's own browser
 * download cannot be fetched here. `CHROMIUM_PATH` points elsewhere on another system.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
}

/** The console over fresh tables on `engine`, with the real receiver recording into them. */
export interface TestConsole {
  readonly server: ConsoleServer;
  readonly table: TestTable;
  readonly refusals: TestTable;
  /** Sends one callback through the receiver (as API Gateway would); returns its status. */
  deliver(fields: Record<string, unknown>, headers?: Record<string, string>): Promise<number>;
  /** A page signed in through a fresh one-time link, at `path`. */
  signedIn(browser: Browser, path?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startTestConsole(
  engine: Engine,
  options: Partial<Pick<ConsoleContext, 'mode' | 'allowActions' | 'activity' | 'eventFiles'>> = {},
): Promise<TestConsole> {
  const table = await createTestTable(engine);
  const refusals = await createTestRefusalsTable(engine);
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
  });
  const receive = receiverWith(new DynamoDbTransactionStore(table.client, table.tableName), {
    refusals: new DynamoDbRefusalStore(refusals.client, refusals.tableName),
  });
  return {
    server,
    table,
    refusals,
    async deliver(fields, headers) {
      const body = signed(fields as Parameters<typeof signed>[0]);
      const answer = await receive(callbackEvent(body, headers ? { headers } : {}));
      return answer.statusCode;
    },
    async signedIn(browser, path = '/') {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(server.signInUrl());
      if (path !== '/') await page.goto(`${server.origin}${path}`);
      return page;
    },
    async close() {
      await server.close();
      await Promise.all([table.drop(), refusals.drop()]);
    },
  };
}
