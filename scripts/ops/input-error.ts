/** Bad input data (a report row, a body file): exit code 2, like a usage mistake. */
export class InputError extends Error {
  override name = 'InputError';
}
