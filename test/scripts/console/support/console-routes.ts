import { Hono } from 'hono';
import type {
  ConsoleContext,
  ConsoleEnv,
  ConsoleReceiver,
} from '../../../../scripts/console/console-context.js';
import { consoleViews } from '../../../../scripts/console/views/console-views.js';
import type { TestConsole } from '../../../support/console-browser.js';
import { specKey } from '../../../support/fixtures.js';

/** A view's answer: its status and its text (HTML for pages). */
export interface RouteAnswer {
  readonly status: number;
  readonly text: string;
}

/** The console's views, asked in-process: GET a path, POST a form (a field may repeat). */
export interface ConsoleRoutes {
  get(path: string): Promise<RouteAnswer>;
  post(path: string, form?: Record<string, string | readonly string[]>): Promise<RouteAnswer>;
  /** Any request, e.g. a multipart upload (`body: FormData`). */
  send(path: string, init: RequestInit): Promise<RouteAnswer>;
}

/** The tables the views read (a console's, or ones a view never reads), and its receiver. */
export type RouteTables = {
  readonly table: Pick<TestConsole['table'], 'client' | 'tableName'>;
  readonly refusals: Pick<TestConsole['refusals'], 'tableName'>;
  readonly receiverUrl?: string;
};

/** What the views are given instead; `receiver: false`, none to resubmit to. */
export type RouteOverrides = Omit<Partial<ConsoleContext>, 'receiver'> & {
  readonly receiver?: ConsoleReceiver | false;
};

/**
 * The console's views on a bare Hono app over `console`'s tables, the session the sign-in would
 * have set already there: the views' own routes without the host, cookie and same-origin checks
 * in front of them (createConsoleApp, tested in console-security.test.ts). No browser: each
 * request is one `app.request`. `overrides` change what the views are given (mode, actions, the
 * receiver, who the operator is) over the same tables.
 */
export function consoleRoutes(
  console: RouteTables,
  { receiver, ...overrides }: RouteOverrides = {},
): ConsoleRoutes {
  const app = new Hono<ConsoleEnv>();
  // One session for every request, as one signed-in browser's (reconcile keeps a result by it).
  const session = { csrfToken: 'test', expiresAt: Number.POSITIVE_INFINITY };
  app.use(async (c, next) => {
    c.set('session', session);
    await next();
  });
  const given =
    receiver === false
      ? undefined
      : (receiver ?? (console.receiverUrl && { url: console.receiverUrl, apiKey: specKey }));
  const context: ConsoleContext = {
    tables: {
      client: console.table.client,
      tableName: console.table.tableName,
      refusalsTableName: console.refusals.tableName,
      description: 'test tables',
    },
    mode: 'local',
    allowActions: true,
    operator: async () => 'local:tester',
    ...(given ? { receiver: given } : {}),
    ...overrides,
  };
  for (const view of consoleViews) view(app, context);
  const answer = async (response: Response) => ({
    status: response.status,
    text: await response.text(),
  });
  return {
    get: async (path) => answer(await app.request(path)),
    send: async (path, init) => answer(await app.request(path, init)),
    post: async (path, form = {}) => {
      const body = new URLSearchParams();
      for (const [name, value] of Object.entries(form)) {
        for (const one of typeof value === 'string' ? [value] : value) body.append(name, one);
      }
      return answer(
        await app.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
        }),
      );
    },
  };
}
