import { UsageError } from '../shared/cli-errors.js';

/** Bad input data (a report row, a body file): exit code 2, like a usage mistake. */
export class InputError extends UsageError {
  override name = 'InputError';
}
