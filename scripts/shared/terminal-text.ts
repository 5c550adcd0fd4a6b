/**
 * Stored strings come from outside (the gateway, or whoever holds a key): before one reaches a
 * terminal, every character that could move the cursor, recolour the screen, reorder text or
 * hide itself is shown as a visible escape. That covers C0 and C1 controls (ESC, CSI U+009B),
 * bidi controls (U+202E), zero-width and other format characters (U+200B..U+200F, U+FEFF, tag
 * characters) and the line and paragraph separators U+2028/U+2029.
 */
const unsafe = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export function terminalText(text: string): string {
  return text.replace(unsafe, (char) => {
    const code = char.codePointAt(0) as number;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
