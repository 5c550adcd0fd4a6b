import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { KeyProvider } from '../auth/accepted-keys.js';
import type { TimeBudget } from '../budget/time-budget.js';
import { StoreUnavailableError, UnauthorizedError } from '../callback/errors.js';
import type { Delivery, Receipt } from '../callback/receive-callback.js';
import { limitDefaults, type TelemetryConfig } from '../config/config.js';
import { type JsonLogger, logContext } from '../observability/json-logger.js';
import { keptHeaders } from '../refusals/kept-headers.js';
import type { RefusalStore } from '../refusals/refusal.js';
import { authenticate } from './authenticate.js';
import type { CallbackContext } from './callback-context.js';
import { httpErrorHandler } from './http-error-handler.js';
import { keepRefusals } from './keep-refusals.js';
import { outcomeLog } from './outcome-log.js';
import { readBody } from './read-body.js';
import { budgetOf, releaseBudget, startBudget } from './start-budget.js';

export interface CallbackHttpDependencies {
  readonly keys: KeyProvider;
  readonly receive: (delivery: Delivery, budget: TimeBudget) => Promise<Receipt>;
  /** Where refusals of authenticated deliveries are kept before they are answered. */
  readonly refusals: RefusalStore;
  readonly logger: JsonLogger;
  /** The service and metrics namespace, and whether the log lines carry EMF counts. */
  readonly telemetry: TelemetryConfig;
  readonly now?: () => Date;
  /** Kept back from Lambda's remaining time for the answer itself. @default `limitDefaults.timeBudgetMarginMs` */
  readonly timeBudgetMarginMs?: number;
}

/** The header on a 204 that tells `recorded` from `duplicate`. */
export const outcomeHeader = 'x-callback-outcome';

/**
 * The API Gateway (REST, payload 1.0) adapter around the use case. Middlewares in the order they
 * run: log context, the outcome log with its metrics (observes), problem responses (the one error
 * mapping), the time budget, refusal keeping (its `onError` runs before the mapping),
 * authentication; then the handler reads the body, hands the delivery
 * to the use case and answers 204.
 */
export function callbackHttpHandler(dependencies: CallbackHttpDependencies) {
  const { keys, receive, refusals, logger, telemetry } = dependencies;
  const now = dependencies.now ?? (() => new Date());
  const marginMs = dependencies.timeBudgetMarginMs ?? limitDefaults.timeBudgetMarginMs;

  return middy<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext>({
    // A backstop only: the budget ends every step well before this fires. Should it fire, the
    // answer is still a retryable 503, never a bare 500.
    timeoutEarlyInMillis: Math.max(1, Math.floor(marginMs / 2)),
    timeoutEarlyResponse: () => {
      throw new StoreUnavailableError({ cause: new Error('middy early timeout') });
    },
    // Once the answer is settled, whatever the path (early response, error, early timeout),
    // the budget's timer goes: nothing of the request outlives its answer.
    requestEnd: releaseBudget,
  })
    .use(logContext(logger))
    .use(outcomeLog(logger, telemetry))
    .use(httpErrorHandler())
    .use(startBudget(marginMs))
    .use(keepRefusals(refusals, now))
    .use(authenticate(keys))
    .handler(async function receiveCallback(event, context) {
      // `authenticate` runs first and sets the key; without one nothing may be recorded.
      if (!context.apiKey) throw new UnauthorizedError();
      context.receipt = await receive(
        {
          rawBody: readBody(event),
          key: context.apiKey,
          requestId: event.requestContext.requestId,
          sourceIp: event.requestContext.identity.sourceIp,
          receivedAt: now(),
          // Kept as a refusal keeps them: no credential, bounded in number and size.
          headers: keptHeaders(event.headers ?? {}).headers,
        },
        budgetOf(context),
      );
      return {
        statusCode: 204,
        headers: { [outcomeHeader]: context.receipt.outcome.toLowerCase() },
        body: '',
      };
    });
}

/** The handler as Lambda calls it. */
export type CallbackHandler = ReturnType<typeof callbackHttpHandler>;
