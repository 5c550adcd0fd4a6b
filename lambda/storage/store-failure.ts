import {
  type CallbackError,
  ItemRejectedError,
  StoreUnavailableError,
} from '../callback/errors.js';

/**
 * What a failed DynamoDB call means for the delivery. DynamoDB refusing the item itself
 * (`ValidationException`, which also reports an item over 400 KB) will refuse it again however
 * often the gateway retries: an {@link ItemRejectedError}. Everything else (throttling, 5xx,
 * timeouts, aborts, network errors, and failures this code does not know) left nothing stored and
 * may pass: a {@link StoreUnavailableError}, so the gateway retries instead of giving up on a
 * payment.
 */
export function storeFailure(error: unknown): CallbackError {
  if (error instanceof Error && error.name === 'ValidationException') {
    return new ItemRejectedError(
      itemTooLarge.test(error.message) ? 'item-too-large' : 'invalid-item',
      {
        cause: error,
      },
    );
  }
  return new StoreUnavailableError({ cause: error });
}

/** DynamoDB's wording for an item over 400 KB: "Item size has exceeded the maximum allowed size". */
const itemTooLarge = /item size/i;
