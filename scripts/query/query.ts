/**
 * `npm run query`: reads recorded callbacks through the table's indexes (never a scan unless
 * `--scan` asks for one). Local mode's data by default; `--table` for a deployed table.
 */
import { parseArgs } from 'node:util';
import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { positiveInteger, reportFailure, UsageError } from '../shared/cli-errors.js';
import { localData } from '../shared/local-data.js';
import { conflictsTable } from './conflicts-table.js';
import { itemJson, itemsJson } from './item-json.js';
import { detailTable, listTable } from './item-table.js';
import { type QueryTarget, resolveTarget } from './query-target.js';
import { timeWindow } from './time-window.js';
import {
  type Filters,
  getTransaction,
  listByTime,
  listByUsername,
  scanTransactions,
} from './transaction-queries.js';

const usage = `Usage:
  npm run query -- get <reference>
  npm run query -- list --username <username>
  npm run query -- list --since <ISO> [--until <ISO>]
  npm run query -- list --scan

  get                     the transaction and any conflicting deliveries kept for audit
  list --username <u>     a user's transactions, newest first (index byUsername)
  list --since <ISO>      received in [since, until), newest first (index byReceivedShard:
                          sixteen shards a day, queried in parallel and merged); until
                          defaults to now; a date alone means midnight UTC
  list --scan             read the whole table (only when asked: it costs a full read)
  --type <t>              Deposit or Withdrawal
  --status <s>            Confirm or Reject
  --limit <n>             at most n transactions (default 50)
  --format table|json     default table; json keeps numbers exact, as DynamoDB stores them
  --table <name>          a deployed table, with the usual AWS_REGION / AWS_PROFILE / credentials
  --endpoint <url>        a DynamoDB-compatible endpoint (default AWS_ENDPOINT_URL_DYNAMODB)
  -h, --help

Without --table or --endpoint it reads local mode's data (DATA_DIR, default .data): through the
running npm start server if there is one, else by opening the folder itself.
`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      username: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      scan: { type: 'boolean', default: false },
      type: { type: 'string' },
      status: { type: 'string' },
      limit: { type: 'string', default: '50' },
      format: { type: 'string', default: 'table' },
      table: { type: 'string' },
      endpoint: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined) {
    process.stdout.write(usage);
    if (command === undefined && !values.help) process.exitCode = 2;
    return;
  }
  const format = values.format;
  if (format !== 'table' && format !== 'json')
    throw new UsageError('--format must be table or json');
  const limit = positiveInteger('--limit', values.limit);
  const filters: Filters = {
    ...(values.type ? { type: oneOf('--type', values.type, ['Deposit', 'Withdrawal']) } : {}),
    ...(values.status ? { status: oneOf('--status', values.status, ['Confirm', 'Reject']) } : {}),
  };

  // Check the whole command line before opening anything.
  let run: (target: QueryTarget) => Promise<string>;
  if (command === 'get') {
    const [reference] = rest;
    if (reference === undefined || rest.length > 1) throw new UsageError('get takes one reference');
    run = async ({ client, tableName }) => {
      const found = await getTransaction(client, tableName, reference);
      if (!found.transaction) process.exitCode = 1;
      if (format === 'json') {
        const transaction = found.transaction ? itemJson(found.transaction, '  ') : 'null';
        return `{\n  "transaction": ${transaction},\n  "conflicts": ${indentJson(itemsJson(found.conflicts))}\n}\n`;
      }
      if (!found.transaction) return `No transaction with reference ${reference}.\n`;
      return detailTable(found.transaction) + conflictsTable(found.conflicts);
    };
  } else if (command === 'list') {
    if (rest.length > 0)
      throw new UsageError(`list takes no positional arguments, got ${rest.join(' ')}`);
    const modes = [values.username !== undefined, values.since !== undefined, values.scan].filter(
      Boolean,
    );
    if (modes.length !== 1) {
      throw new UsageError('list needs exactly one of --username, --since or --scan');
    }
    if (values.until !== undefined && values.since === undefined)
      throw new UsageError('--until needs --since');
    if (values.username === '') throw new UsageError('--username must not be empty');
    const window = values.since === undefined ? undefined : timeWindow(values.since, values.until);
    const username = values.username;
    run = async ({ client, tableName }) => {
      const items =
        username !== undefined
          ? await listByUsername(client, tableName, username, limit, filters)
          : window
            ? await listByTime(client, tableName, window, limit, filters)
            : await scanTransactions(client, tableName, limit, filters);
      if (format === 'json') return `${itemsJson(items)}\n`;
      const more = items.length === limit ? ` (the newest ${limit}: raise --limit for more)` : '';
      return `${listTable(items)}${items.length} transaction${items.length === 1 ? '' : 's'}${more}\n`;
    };
  } else {
    throw new UsageError(`unknown command ${command}: use get or list`);
  }

  const target = await resolveTarget({
    ...(values.table ? { table: values.table } : {}),
    ...((values.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB)
      ? { endpoint: values.endpoint ?? process.env.AWS_ENDPOINT_URL_DYNAMODB }
      : {}),
    data: localData(process.env.DATA_DIR),
    ...(process.env.TABLE_NAME ? { localTableName: process.env.TABLE_NAME } : {}),
  });
  try {
    process.stdout.write(await run(target));
  } catch (error) {
    if (error instanceof ResourceNotFoundException) {
      throw new Error(`Table ${target.tableName} was not found in ${target.description}.`);
    }
    throw error;
  } finally {
    await target.close();
  }
}

function oneOf(option: string, value: string, allowed: readonly string[]): string {
  const match = allowed.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
  if (!match) throw new UsageError(`${option} must be ${allowed.join(' or ')}, got ${value}`);
  return match;
}

function indentJson(text: string): string {
  return text.replace(/\n/g, '\n  ');
}

main().catch((error: unknown) => reportFailure('query', error));
