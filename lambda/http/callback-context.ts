import type { Context } from 'aws-lambda';
import type { AcceptedKey } from '../auth/accepted-keys.js';
import type { TimeBudget } from '../budget/time-budget.js';
import type { Receipt } from '../callback/receive-callback.js';

/**
 * The Lambda context as middy hands it to this function's middlewares and handler, with the
 * state one request carries from step to step. Every field is optional, so the plain context
 * Lambda passes is already one: nothing is cast, and a step that needs a field checks it is set.
 */
export interface CallbackContext extends Context {
  /** What the invocation may spend before it answers; set by `startBudget`, first of all. */
  budget?: TimeBudget;
  /** The accepted key the request presented; set by `authenticate` before the handler runs. */
  apiKey?: AcceptedKey;
  /**
   * Set by `keepRefusals` when the minute's bound left a refusal unkept: who sent it and its
   * digest, the only trace of it left, for the outcome log.
   */
  refusalNotKept?: { readonly keyId: string; readonly sourceIp: string; readonly digest: string };
  /** What the use case recorded; set by the handler, read by the outcome log. */
  receipt?: Receipt;
}
