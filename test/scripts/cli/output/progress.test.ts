import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Progress, progressDelayMs } from '../../../../scripts/cli/output/progress.js';

function stream(isTTY: boolean) {
  const out = Object.assign(new PassThrough(), { isTTY, columns: 80 });
  const chunks: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  // cli-progress moves the cursor with these on a terminal.
  Object.assign(out, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { out, written: () => chunks.join('') };
}

describe('progress on stderr', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws nothing in the first two seconds, then counts on a terminal', async () => {
    const { out, written } = stream(true);
    const progress = new Progress('report rows', out);

    progress.add(5_000);
    await vi.advanceTimersByTimeAsync(progressDelayMs - 100);
    const early = written();
    await vi.advanceTimersByTimeAsync(1_000);
    progress.add(5_000);
    await vi.advanceTimersByTimeAsync(1_000);
    progress.stop();
    await vi.advanceTimersByTimeAsync(100);

    expect(early).toBe('');
    expect(written()).toContain('report rows: ');
    expect(written()).toMatch(/10000/);
  });

  it('draws nothing at all when stderr is not a terminal', async () => {
    const { out, written } = stream(false);
    const progress = new Progress('report rows', out);

    progress.add(1_000_000);
    await vi.advanceTimersByTimeAsync(10_000);
    progress.stop();

    expect(written()).toBe('');
  });
});
