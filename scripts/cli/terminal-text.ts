/**
 * Stored strings come from outside: every character that could move the cursor, recolour the
 * screen, reorder text or hide itself (C0/C1 controls, bidi and zero-width format characters,
 * U+2028/U+2029) is shown as a visible escape before it reaches a terminal.
 */
export const unsafeCharacter = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const unsafe = new RegExp(unsafeCharacter, 'gu');

export function terminalText(text: string): string {
  return text.replace(unsafe, (char) => {
    const code = char.codePointAt(0) as number;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
