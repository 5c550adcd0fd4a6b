import { SingleBar } from 'cli-progress';

/** Quiet for quick commands: progress appears only once a command has run this long. */
export const progressDelayMs = 2_000;

/** The stream progress is drawn on: a terminal, or nothing is drawn. */
export interface ProgressStream extends NodeJS.WritableStream {
  readonly isTTY?: boolean;
}

/**
 * Counts what a long command has read, on stderr, so stdout stays the result alone. Nothing is
 * drawn when stderr is not a terminal (a cron job's log, CI) or before two seconds have passed.
 */
export class Progress {
  #count = 0;
  #shown = 0;
  #bar: SingleBar | undefined;
  readonly #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly label: string,
    stream: ProgressStream = process.stderr,
  ) {
    if (!stream.isTTY) return;
    this.#timer = setTimeout(() => {
      this.#bar = new SingleBar({
        stream,
        format: `${label}: {value} {duration_formatted}`,
        hideCursor: true,
        clearOnComplete: true,
        // Redrawn on a timer, not per row: a million rows cost a million additions, nothing more.
        fps: 5,
        noTTYOutput: false,
      });
      this.#bar.start(0, this.#count);
    }, progressDelayMs);
    this.#timer.unref();
  }

  add(count = 1): void {
    this.#count += count;
    // The bar redraws on its own timer; telling it the count now and then is enough.
    if (this.#bar && this.#count - this.#shown >= 1000) {
      this.#shown = this.#count;
      this.#bar.update(this.#count);
    }
  }

  /** Clears the line, so the result that follows starts on a clean one. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#bar?.update(this.#count);
    this.#bar?.stop();
    this.#bar = undefined;
  }
}

/** The items of `stream`, each counted on a {@link Progress} that stops when the stream does. */
export async function* withProgress<T>(
  stream: AsyncIterable<T> | Iterable<T>,
  label: string,
  out?: ProgressStream,
): AsyncGenerator<T> {
  const progress = new Progress(label, out);
  try {
    for await (const item of stream) {
      progress.add();
      yield item;
    }
  } finally {
    progress.stop();
  }
}
