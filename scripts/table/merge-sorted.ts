/**
 * Merges streams that are each in `compare` order into one, reading each only as far as needed
 * (one item per stream held at a time, plus whatever page its reader holds); stopping the merge
 * closes them all. The index queries of `list`, `export`, `summary` and `refused` use it to read
 * their shards in parallel and still stream newest first.
 */
export async function* mergeSorted<T>(
  streams: readonly AsyncIterable<T>[],
  compare: (a: T, b: T) => number,
): AsyncGenerator<T> {
  const iterators = streams.map((stream) => stream[Symbol.asyncIterator]());
  try {
    const heads = await Promise.all(iterators.map((iterator) => iterator.next()));
    for (;;) {
      let best = -1;
      heads.forEach((head, index) => {
        const current = heads[best];
        if (head.done) return;
        if (!current || current.done || compare(head.value, current.value) < 0) best = index;
      });
      const winner = heads[best];
      if (!winner || winner.done) return;
      yield winner.value;
      heads[best] = await (iterators[best] as AsyncIterator<T>).next();
    }
  } finally {
    await Promise.all(iterators.map((iterator) => iterator.return?.()));
  }
}
