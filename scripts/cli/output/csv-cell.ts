/**
 * A spreadsheet runs a cell that begins with `=`, `+`, `-` or `@` as a formula, and some treat a
 * leading tab or carriage return the same way (OWASP, "CSV Injection"). Stored strings come from
 * outside, so an exported cell that starts with one of them gets a leading `'`, which spreadsheets
 * show as text. `--csv-raw` writes cells exactly as stored instead.
 */
const formulaStart = /^[=+\-@\t\r]/;

export function neutralisedCell(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}
