import { raw } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { unsafeCharacter } from '../../cli/terminal-text.js';

const unsafe = new RegExp(unsafeCharacter, 'gu');
const markup: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * A stored string for the page: HTML-escaped, and every character that could reorder, hide or
 * disguise text (controls, bidi overrides, zero-width format characters, line separators) shown
 * as a visible `U+XXXX` mark instead, so `gbp\u202Eevil` cannot pass for another value. Templates
 * (`hono/html`) escape what they are given anyway; this adds the visible marks.
 */
export function shown(value: unknown): HtmlEscapedString {
  return raw(escaped(value).replace(unsafe, mark)) as HtmlEscapedString;
}

/**
 * A body for a `<pre>`: as {@link shown}, but a line feed also breaks the line after its mark, so
 * a pretty-printed body reads as lines and still shows exactly which line ends it had (`U+000D`
 * before the break for CRLF).
 */
export function shownLines(value: unknown): HtmlEscapedString {
  return raw(
    escaped(value).replace(unsafe, (char) => (char === '\n' ? `${mark(char)}\n` : mark(char))),
  ) as HtmlEscapedString;
}

/** The value as text (`undefined` as empty), with the five markup characters escaped. */
function escaped(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? '' : String(value);
  return text.replace(/[&<>"']/g, (char) => markup[char] as string);
}

function mark(char: string): string {
  const code = (char.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
  return `<span class="unsafe" title="invisible or control character">U+${code}</span>`;
}
