import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportFailure } from '../../../scripts/cli/cli-errors.js';
import { detailLines, textTable } from '../../../scripts/cli/output/text-table.js';
import { terminalText } from '../../../scripts/cli/terminal-text.js';

describe('terminalText (what a stored string may do to a terminal)', () => {
  it.each([
    ['ESC (C0)', '\u001b[2J', '\\u001b[2J'],
    ['CSI (C1)', '\u009b31m', '\\u009b31m'],
    ['DEL', 'a\u007fb', 'a\\u007fb'],
    ['newline and tab', 'a\nb\tc', 'a\\u000ab\\u0009c'],
    ['right-to-left override', 'abc\u202edcba', 'abc\\u202edcba'],
    ['bidi isolate', '\u2066x\u2069', '\\u2066x\\u2069'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['byte order mark', '\ufeffname', '\\ufeffname'],
    ['zero-width space', 'ad\u200bmin', 'ad\\u200bmin'],
    ['tag characters (astral)', 'x\u{e0041}', 'x\\u{e0041}'],
  ])('shows %s as a visible escape', (_, input, shown) => {
    expect(terminalText(input)).toBe(shown);
  });

  it('leaves ordinary text alone, accents, CJK and emoji included', () => {
    const text = 'Zoë 山田 💳 O\u2019Brien';

    expect(terminalText(text)).toBe(text);
  });
});

describe('textTable and detailLines', () => {
  it('aligns columns by display width: a CJK name takes two columns per character', () => {
    const text = textTable(
      ['name', 'amount'],
      [
        ['山田', '1'],
        ['ab', '22'],
      ],
    );
    const lines = text.trimEnd().split('\n');

    expect(lines).toEqual(['name  amount', '山田  1', 'ab    22']);
  });

  it('escapes every cell and value, so no control character reaches the terminal', () => {
    const table = textTable(['h'], [['\u009b2J\u202e']]);
    const detail = detailLines([['message', 'x\u001b]0;title\u0007']]);

    expect(table.replaceAll('\n', '')).not.toMatch(/[\p{Cc}\u202e]/u);
    expect(table).toContain('\\u009b2J\\u202e');
    expect(detail).toBe('message  x\\u001b]0;title\\u0007\n');
  });
});

describe('reportFailure', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  it('escapes what an error message carries, keeping its lines, and exits 3', () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);

    reportFailure('query', new Error('no kept refusal \u009b2J\u202e\nsecond line'));

    expect(stderr.mock.calls.map(([text]) => text).join('')).toBe(
      'query failed: no kept refusal \\u009b2J\\u202e\nsecond line\n',
    );
    expect(process.exitCode).toBe(3);
  });
});
