import { expect, vi } from 'vitest';

/**
 * Captures everything written to stdout and stderr (where the function's logger and metrics
 * write) from `start()` until `stop()`, with logging at its most verbose. Vitest's own `console`
 * goes elsewhere, so a test can still print its figures.
 */
export function logCapture() {
  const chunks: string[] = [];
  let previousLevel: string | undefined;

  return {
    start() {
      previousLevel = process.env.POWERTOOLS_LOG_LEVEL;
      process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
      const capture = (chunk: unknown) => {
        chunks.push(
          typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString(),
        );
        return true;
      };
      vi.spyOn(process.stdout, 'write').mockImplementation(capture);
      vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    },
    /** Also takes output that did not go through this process's streams (a child's). */
    add(text: string) {
      chunks.push(text);
    },
    stop() {
      vi.restoreAllMocks();
      if (previousLevel === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
      else process.env.POWERTOOLS_LOG_LEVEL = previousLevel;
    },
    lines(): string[] {
      return chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '');
    },
  };
}

type LogCapture = ReturnType<typeof logCapture>;

type Secrets = readonly (readonly [label: string, secret: string])[];

/** The captured lines that contain any of `secrets` (with the secret named, not shown). */
function linesLeaking(lines: readonly string[], secrets: Secrets): string[] {
  const leaks: string[] = [];
  for (const line of lines) {
    for (const [label, secret] of secrets) {
      if (secret !== '' && line.includes(secret)) leaks.push(`${label} in: ${line.slice(0, 200)}`);
    }
  }
  return leaks;
}

/**
 * Asserts that some captured line contains `seen` (so the capture is not empty by mistake) and
 * that none contains any of `secrets`, nor the salted text a hash covers, raw or JSON-escaped.
 */
export function expectNoLeaks(logs: LogCapture, seen: string, secrets: Secrets): void {
  const lines = logs.lines();
  expect(lines.some((line) => line.includes(seen))).toBe(true);
  const salted = ['"hash":""', '\\"hash\\":\\"\\"'].map((text) => ['a salted text', text] as const);
  expect(linesLeaking(lines, [...secrets, ...salted])).toEqual([]);
}
