import type { Hono } from 'hono';
import type { ConsoleContext, ConsoleEnv } from '../console-context.js';
import { activityView } from './activity-view.js';
import { conflictsView } from './conflicts-view.js';
import { hashCheckView } from './hash-check-view.js';
import { reconcileView } from './reconcile-view.js';
import { refusalsView } from './refusals-view.js';
import { transactionView } from './transaction-view.js';
import { transactionsView } from './transactions-view.js';

/** Each view registers its routes; the navigation lists them in html/layout.ts. */
export const consoleViews: readonly ((app: Hono<ConsoleEnv>, console: ConsoleContext) => void)[] = [
  transactionsView,
  transactionView,
  conflictsView,
  refusalsView,
  reconcileView,
  activityView,
  hashCheckView,
];
