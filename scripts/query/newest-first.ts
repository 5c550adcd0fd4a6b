import type { StoredItem } from './stored-item.js';

/** Newest first; equal times by reference, so the order is total and stable between runs. */
export function compareNewestFirst(a: StoredItem, b: StoredItem): number {
  const at = (item: StoredItem) => String(item.receivedAt ?? '');
  const ref = (item: StoredItem) => String(item.reference ?? '');
  return at(b).localeCompare(at(a)) || ref(a).localeCompare(ref(b));
}

/**
 * Merges streams that are each newest first into one newest-first stream, reading each only as
 * far as the output has got: memory holds one page per stream, whatever the total. Stopping
 * early (a `--limit`) closes every stream, which stops their paginators.
 */
export async function* mergeNewestFirst(
  streams: readonly AsyncIterable<StoredItem>[],
): AsyncGenerator<StoredItem> {
  const iterators = streams.map((stream) => stream[Symbol.asyncIterator]());
  try {
    const heads = await Promise.all(iterators.map((iterator) => iterator.next()));
    for (;;) {
      let best = -1;
      heads.forEach((head, index) => {
        const current = heads[best];
        if (head.done) return;
        if (!current || current.done || compareNewestFirst(head.value, current.value) < 0) {
          best = index;
        }
      });
      const winner = heads[best];
      if (!winner || winner.done) return;
      yield winner.value;
      heads[best] = await (iterators[best] as AsyncIterator<StoredItem>).next();
    }
  } finally {
    await Promise.all(iterators.map((iterator) => iterator.return?.()));
  }
}

/** The first `limit` items of a stream, then stops it. */
export async function* take<T>(stream: AsyncIterable<T>, limit: number): AsyncGenerator<T> {
  if (limit <= 0) return;
  let count = 0;
  for await (const item of stream) {
    yield item;
    if (++count >= limit) return;
  }
}
