import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { IndexDefinition, TableDefinition } from '../../lambda/storage/table-definition.js';
import type { Item } from '../../lambda/storage/transaction-item.js';

/**
 * DynamoDB's item size, by its published rules: each attribute's name in UTF-8 bytes plus its
 * value (a string's UTF-8 bytes; a number about one byte per two significant digits, plus one;
 * a map or list 3 bytes plus 1 per element and its members).
 */
export function itemSize(item: Item): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += utf8(name) + valueSize(value);
  return size;
}

function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.M !== undefined) return 3 + Object.keys(value.M).length + itemSize(value.M);
  if (value.L !== undefined) {
    return 3 + value.L.reduce((sum, entry) => sum + 1 + valueSize(entry), 0);
  }
  throw new Error('itemSize: set and binary attributes are not used here');
}

function numberSize(digits: string): number {
  const significant = digits.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(significant.length, 1) / 2) + 1;
}

function utf8(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** DynamoDB's storage overhead for each index entry. */
export const indexEntryOverhead = 100;

/** The entry an item makes in an index: none without the index key; else keys plus projection. */
export function indexEntry(
  item: Item,
  table: TableDefinition,
  index: IndexDefinition,
): Item | undefined {
  if (item[index.partitionKey] === undefined || item[index.sortKey] === undefined) return undefined;
  if (index.projection === 'all') return item;
  const names = [table.partitionKey, index.partitionKey, index.sortKey, ...index.projection];
  return Object.fromEntries(
    names.flatMap((name) =>
      item[name] === undefined ? [] : [[name, item[name] as AttributeValue]],
    ),
  );
}

/** Write units of one new item: 1 per KB (rounded up) for the table and for each index entry. */
export function writeUnits(
  item: Item,
  table: TableDefinition,
): { table: number; indexes: number[] } {
  const units = (bytes: number) => Math.ceil(bytes / 1024);
  return {
    table: units(itemSize(item)),
    indexes: table.indexes.map((index) => {
      const entry = indexEntry(item, table, index);
      return entry ? units(itemSize(entry) + indexEntryOverhead) : 0;
    }),
  };
}
