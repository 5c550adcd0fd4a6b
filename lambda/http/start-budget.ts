import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { invocationBudget, type TimeBudget, unlimitedBudget } from '../budget/time-budget.js';
import type { CallbackContext } from './callback-context.js';

/** Starts the invocation's time budget before any other step, so every step runs inside it. */
export function startBudget(
  marginMs: number,
): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, CallbackContext> {
  return {
    before: function startTimeBudget(request) {
      request.context.budget = invocationBudget(request.context, marginMs);
    },
  };
}

/** Middy's `requestEnd` hook: releases the budget {@link startBudget} set, if it did. */
export function releaseBudget(request: { context: CallbackContext }): void {
  request.context.budget?.release();
}

/** The budget {@link startBudget} set; unbounded for a step run without it (tested alone). */
export function budgetOf(context: CallbackContext): TimeBudget {
  return context.budget ?? unlimitedBudget();
}
