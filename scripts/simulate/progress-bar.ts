/**
 * A one-line progress bar on stderr, redrawn at most ten times a second. It draws only on a
 * terminal: piped or captured output (CI, tests, `--json | jq`) stays clean.
 */
export interface ProgressBar {
  update(done: number, retries: number): void;
  finish(): void;
}

export function progressBar(
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): ProgressBar {
  if (!stream.isTTY) return { update() {}, finish() {} };
  const started = performance.now();
  let lastDraw = 0;
  let drawn = false;
  const draw = (done: number, retries: number) => {
    const width = Math.max(10, Math.min(40, (stream.columns ?? 80) - 50));
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(done / seconds) : 0;
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    const line =
      `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${percent}% ` +
      `${rate}/s${retries > 0 ? ` retries ${retries}` : ''}`;
    stream.write(`\r${line}\u001b[K`);
    drawn = true;
  };
  return {
    update(done, retries) {
      const now = performance.now();
      if (now - lastDraw < 100 && done < total) return;
      lastDraw = now;
      draw(done, retries);
    },
    finish() {
      if (drawn) stream.write('\r\u001b[K');
    },
  };
}
