// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to match them
const unprintable = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Stored strings shown on a terminal: control characters (escape sequences, newlines, the
 * conflict key separator) become visible `\uXXXX` escapes, so a hostile value cannot move the
 * cursor, recolour the screen or fake a line of output.
 */
export function terminalSafe(text: string): string {
  return text.replace(
    unprintable,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
