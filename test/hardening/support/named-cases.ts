import { encodingCases } from './encoding-cases.js';
import { engineLimitCases } from './engine-limit-cases.js';
import { hashCases } from './hash-cases.js';
import { headerCases } from './header-cases.js';
import type { NamedCase } from './named-request.js';
import { notTransactionCases, parsingCases } from './parsing-cases.js';

export type { NamedCase } from './named-request.js';

/**
 * Every hand-made hostile request (named-request.ts), each with the status
 * docs/callback-interface.md promises: one file per kind of oddity.
 */
export const namedCases: readonly NamedCase[] = [
  ...parsingCases,
  ...encodingCases,
  ...headerCases,
  ...hashCases,
  ...engineLimitCases,
  ...notTransactionCases,
];
