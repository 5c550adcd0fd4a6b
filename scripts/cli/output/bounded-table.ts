import { textTable } from './text-table.js';

/** Rows a terminal table shows by default: a screenful, whatever the count. */
export const tableRows = 50;

/**
 * A table for a person: the first `limit` items' rows are kept, the rest only counted, so a
 * million items cost the memory of fifty. Column widths come from the rows shown.
 */
export class BoundedTable<T> {
  #count = 0;
  readonly #rows: string[][] = [];

  constructor(
    readonly head: readonly string[],
    private readonly rowsOf: (item: T) => readonly (readonly string[])[],
    readonly options: { readonly limit?: number; readonly alignRight?: readonly number[] } = {},
  ) {}

  add(item: T): void {
    this.#count += 1;
    if (this.#count <= this.limit) this.#rows.push(...this.rowsOf(item).map((row) => [...row]));
  }

  get limit(): number {
    return this.options.limit ?? tableRows;
  }

  /** Items added, shown or not. */
  get count(): number {
    return this.#count;
  }

  /** Items counted but not shown. */
  get hidden(): number {
    return Math.max(0, this.#count - this.limit);
  }

  /** The table of the rows kept ('' when there are none). */
  render(): string {
    if (this.#rows.length === 0) return '';
    return textTable(this.head, this.#rows, { alignRight: this.options.alignRight ?? [] });
  }
}

/** The line under a bounded table: how many were not shown, and how to get them all. */
export function moreLine(hidden: number, what: string, formats: string): string {
  if (hidden === 0) return '';
  return `${hidden} more ${what}: use --format ${formats} or --output FILE\n`;
}
