import {
  type AttributeValue,
  BatchWriteItemCommand,
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type GlobalSecondaryIndexDescription,
  paginateScan,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTableCommand,
  waitUntilTableExists,
  waitUntilTableNotExists,
} from '@aws-sdk/client-dynamodb';

/**
 * Brings a local table's indexes to its definition's, so a data folder made under an older
 * declaration (a listed field since added: other list indexes) opens under the new one with its
 * data. As on AWS, one index is created or deleted at a time and each waits to be `ACTIVE` or
 * gone. dynalite, local mode's engine, accepts such an update and ignores it: there the table is
 * rebuilt instead, its items copied to a spare table under the new definition and back.
 *
 * @returns what changed, for the one line the caller shows; empty when nothing had to.
 */
export async function migrateTable(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
): Promise<string[]> {
  const name = input.TableName as string;
  // A rebuild cut short (the process killed) finishes first: the spare may hold the only copy.
  const resumed = await resumeRebuild(client, input);
  if (resumed) return resumed;
  const table = await describe(client, name);
  if (!table) return [];
  const { stale, missing } = indexChanges(input, table);
  const changes = [
    ...stale.map((index) => ({ delete: index })),
    ...missing.map((index) => ({ create: index })),
  ];
  const done: string[] = [];
  for (const change of changes) {
    const applied =
      'delete' in change
        ? await deleteIndex(client, name, change.delete)
        : await createIndex(client, input, change.create);
    if (!applied) return rebuildTable(client, input, describeChanges(stale, missing));
    done.push('delete' in change ? `deleted ${change.delete}` : `created ${change.create}`);
  }
  return done;
}

/** The indexes to delete (gone from the definition, or defined otherwise) and to create. */
function indexChanges(
  input: CreateTableCommandInput,
  table: TableDescription,
): { stale: string[]; missing: string[] } {
  const wanted = new Map((input.GlobalSecondaryIndexes ?? []).map((i) => [i.IndexName, i]));
  const present = new Map((table.GlobalSecondaryIndexes ?? []).map((i) => [i.IndexName, i]));
  const same = (name: string | undefined) => {
    const [want, have] = [wanted.get(name), present.get(name)];
    return want !== undefined && have !== undefined && shape(want) === shape(have);
  };
  return {
    stale: [...present.keys()].filter((name) => !same(name)) as string[],
    missing: [...wanted.keys()].filter((name) => !same(name)) as string[],
  };
}

/** Keys and projection, the parts an index cannot change in place, compared as one string. */
function shape(index: GlobalSecondaryIndex | GlobalSecondaryIndexDescription): string {
  const keys = (index.KeySchema ?? []).map(({ AttributeName, KeyType }) => [
    AttributeName,
    KeyType,
  ]);
  const projected = [...(index.Projection?.NonKeyAttributes ?? [])].sort();
  return JSON.stringify([keys, index.Projection?.ProjectionType ?? 'ALL', projected]);
}

function describeChanges(stale: readonly string[], missing: readonly string[]): string[] {
  return [...stale.map((name) => `deleted ${name}`), ...missing.map((name) => `created ${name}`)];
}

async function describe(
  client: DynamoDBClient,
  name: string,
): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/** Local engines finish an index in well under this; a hung one fails the start, not stalls it. */
const indexWaitMs = 60_000;

async function waitForIndex(
  client: DynamoDBClient,
  name: string,
  indexName: string,
  settled: (index: GlobalSecondaryIndexDescription | undefined) => boolean,
): Promise<void> {
  const deadline = Date.now() + indexWaitMs;
  for (;;) {
    const table = await describe(client, name);
    const index = table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === indexName);
    if (settled(index)) return;
    if (Date.now() > deadline) {
      throw new Error(`Index ${indexName} of table ${name} did not settle in ${indexWaitMs} ms`);
    }
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** False when the engine took the update without doing it (dynalite). */
async function deleteIndex(client: DynamoDBClient, name: string, indexName: string) {
  const { TableDescription: after } = await client.send(
    new UpdateTableCommand({
      TableName: name,
      GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: indexName } }],
    }),
  );
  const index = after?.GlobalSecondaryIndexes?.find((i) => i.IndexName === indexName);
  if (index && index.IndexStatus !== 'DELETING') return false;
  await waitForIndex(client, name, indexName, (found) => found === undefined);
  return true;
}

/** False when the engine refused or ignored the update (dynalite does either). */
async function createIndex(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
  indexName: string,
): Promise<boolean> {
  const index = input.GlobalSecondaryIndexes?.find((i) => i.IndexName === indexName);
  const keys = new Set(index?.KeySchema?.map((key) => key.AttributeName));
  let after: TableDescription | undefined;
  try {
    ({ TableDescription: after } = await client.send(
      new UpdateTableCommand({
        TableName: input.TableName,
        AttributeDefinitions: input.AttributeDefinitions?.filter((a) => keys.has(a.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    ));
  } catch (error) {
    // dynalite asks a pay-per-request table's new index for a throughput, then ignores it.
    if ((error as Error).name === 'ValidationException') return false;
    throw error;
  }
  if (!after?.GlobalSecondaryIndexes?.some((i) => i.IndexName === indexName)) return false;
  await waitForIndex(client, input.TableName as string, indexName, (found) => {
    return found?.IndexStatus === 'ACTIVE' && found.Backfilling !== true;
  });
  return true;
}

/** Where a rebuild keeps the items while the table is made anew ('.' is allowed in names). */
export function spareTableName(name: string): string {
  return `${name}.rebuild`;
}

/**
 * The table made anew under `input`, its items kept in a spare table meanwhile. Each step is
 * safe to repeat, so a run cut short is finished by the next (see resumeRebuild).
 */
async function rebuildTable(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
  changes: string[],
): Promise<string[]> {
  const name = input.TableName as string;
  const spare = spareTableName(name);
  await createTable(client, spareInput(input));
  await copyItems(client, name, spare);
  // From here the spare holds every item, and the table's state says which step comes next.
  await dropTable(client, name);
  await finishRebuild(client, input);
  return [...changes, 'by copying the table'];
}

/**
 * After a rebuild cut short, its spare table is still there. The table's own state says how far
 * it got: still under the old definition, the copy to the spare may be partial (the table has
 * every item: start again); missing or under the new one, the spare has every item (copy back).
 */
async function resumeRebuild(
  client: DynamoDBClient,
  input: CreateTableCommandInput,
): Promise<string[] | undefined> {
  const name = input.TableName as string;
  const spare = spareTableName(name);
  if (!(await describe(client, spare))) return undefined;
  const table = await describe(client, name);
  if (table) {
    const { stale, missing } = indexChanges(input, table);
    if (stale.length + missing.length > 0) {
      await dropTable(client, spare);
      return rebuildTable(client, input, describeChanges(stale, missing));
    }
  }
  await finishRebuild(client, input);
  return ['finished an interrupted rebuild'];
}

async function finishRebuild(client: DynamoDBClient, input: CreateTableCommandInput) {
  const name = input.TableName as string;
  const spare = spareTableName(name);
  if (!(await describe(client, name))) await createTable(client, input);
  await copyItems(client, spare, name);
  await dropTable(client, spare);
}

/** The spare: the same keys and indexes, no stream (nothing reads its changes). */
function spareInput(input: CreateTableCommandInput): CreateTableCommandInput {
  const { StreamSpecification: _noStream, ...rest } = input;
  return { ...rest, TableName: spareTableName(input.TableName as string) };
}

const waiting = { maxWaitTime: 60, minDelay: 1, maxDelay: 2 };

async function createTable(client: DynamoDBClient, input: CreateTableCommandInput) {
  await client.send(new CreateTableCommand(input));
  await waitUntilTableExists({ client, ...waiting }, { TableName: input.TableName });
}

async function dropTable(client: DynamoDBClient, name: string) {
  await client.send(new DeleteTableCommand({ TableName: name }));
  await waitUntilTableNotExists({ client, ...waiting }, { TableName: name });
}

/** Every item of `from` written to `to` as it is (a repeated copy writes the same again). */
async function copyItems(client: DynamoDBClient, from: string, to: string): Promise<void> {
  for await (const page of paginateScan({ client }, { TableName: from, ConsistentRead: true })) {
    const items = page.Items ?? [];
    for (let start = 0; start < items.length; start += 25) {
      await writeAll(client, to, items.slice(start, start + 25));
    }
  }
}

async function writeAll(
  client: DynamoDBClient,
  table: string,
  items: Record<string, AttributeValue>[],
): Promise<void> {
  let requests = items.map((item) => ({ PutRequest: { Item: item } }));
  while (requests.length > 0) {
    const { UnprocessedItems } = await client.send(
      new BatchWriteItemCommand({ RequestItems: { [table]: requests } }),
    );
    requests = (UnprocessedItems?.[table] ?? []).flatMap(({ PutRequest }) =>
      PutRequest?.Item ? [{ PutRequest: { Item: PutRequest.Item } }] : [],
    );
    if (requests.length > 0) await new Promise((done) => setTimeout(done, 50));
  }
}
