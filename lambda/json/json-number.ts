/**
 * A JSON number kept as the exact text the sender wrote. `9007199254740993` or `1050.75` must
 * reach DynamoDB digit for digit; a JavaScript number would silently round the first.
 */
export class JsonNumber {
  constructor(readonly source: string) {}

  toJSON(): string {
    return this.source;
  }
}
