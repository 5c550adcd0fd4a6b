/**
 * A stream record that claims to be a transaction or conflict but cannot become a valid event:
 * retrying cannot fix it, so it is reported as failed and ends in the dead-letter queue, where
 * the alarm brings it to an operator. The message names fields and rules, never values.
 */
export class UnpublishableRecordError extends Error {
  override name = 'UnpublishableRecordError';
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
    options?: ErrorOptions,
  ) {
    super(problems.length > 0 ? `${message}: ${problems.join('; ')}` : message, options);
  }
}
