/**
 * What JSON.stringify leaves raw in a log line although a terminal or log viewer acts on it: C1
 * controls (U+0080–U+009F, CSI among them), format characters (bidi overrides and isolates,
 * zero-width characters, BOM) and the line and paragraph separators. C0 controls are already
 * escaped by JSON itself.
 */
const hidden = /[\u0080-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;
/**
 * Every character `hidden` matches is above U+007F (an astral one is a surrogate pair), so an
 * ASCII-only string, what most log lines hold, never runs it: compiling its Unicode property
 * classes took about 0.2 ms of the first invocation.
 */
const beyondAscii = /[\u0080-\uffff]/;

/**
 * The logger's JSON replacer: a stored string (a reference, extra member names, a message)
 * shows such characters as visible `\uXXXX` text, so `tail -f` or a console cannot be steered
 * by a callback. Only the log line changes: the stored item keeps every byte.
 */
export function visibleLogText(_key: string, value: unknown): unknown {
  return typeof value === 'string' && beyondAscii.test(value)
    ? value.replace(hidden, visibleEscape)
    : value;
}

function visibleEscape(char: string): string {
  const code = char.codePointAt(0) as number;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}
