/** An error that knows its HTTP status, as `http-errors` / `@middy/util` `createError` build them. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}
