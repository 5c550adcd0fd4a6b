import { type FieldDeclarations, transactionFields } from './transaction-fields.js';

const yes = (flag: boolean) => (flag ? 'yes' : '');

/**
 * The field table of docs/callback-interface.md, rendered from the declaration (a test compares
 * it with the page). Not imported by the function: documentation only.
 */
export function fieldTable(fields: FieldDeclarations = transactionFields): string {
  const rows = Object.entries(fields).map(([name, field]) =>
    [
      `\`${name}\``,
      field.rule,
      field.required ? 'required' : 'optional',
      yes(field.fingerprinted),
      yes(field.published),
      field.listed === false ? '' : `\`${field.listed}\``,
      yes(field.reconciled),
      String(field.since),
    ].join(' | '),
  );
  return [
    '| field | rule | presence | compared | published | listed as | reconciled | since |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}
