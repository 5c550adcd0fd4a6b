import { describe, expect, it } from 'vitest';
import { shown, shownLines } from '../../../../scripts/console/html/shown-text.js';

const mark = (code: string) =>
  `<span class="unsafe" title="invisible or control character">U+${code}</span>`;

describe('shown', () => {
  it('escapes markup and marks controls, bidi and zero-width characters', () => {
    expect(String(shown('<b a="1">\'&\u202Eeur\u200B\n'))).toBe(
      `&lt;b a=&quot;1&quot;&gt;&#39;&amp;${mark('202E')}eur${mark('200B')}${mark('000A')}`,
    );
  });

  it('shows numbers and absent values as text', () => {
    expect(String(shown(1050.7))).toBe('1050.7');
    expect(String(shown(undefined))).toBe('');
  });
});

describe('shownLines', () => {
  it('breaks the line after a marked line feed, and marks a carriage return', () => {
    expect(String(shownLines('{\r\n  "a": "<x>"\n}'))).toBe(
      `{${mark('000D')}${mark('000A')}\n  &quot;a&quot;: &quot;&lt;x&gt;&quot;${mark('000A')}\n}`,
    );
  });
});
