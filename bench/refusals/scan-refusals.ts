/**
 * The baseline of bench/refusals: how `query refused` and a digest-prefix lookup read kept
 * refusals before they had an index (main at 5bac6cc), kept here only to be measured beside the
 * streaming reads. A whole-table scan into memory, then a sort, then one string of output.
 *
 *   node --import tsx bench/refusals/scan-refusals.ts <endpoint> <table> table|json|prefix <p>
 */
import { type AttributeValue, paginateScan } from '@aws-sdk/client-dynamodb';
import { exactJson } from '../../scripts/cli/output/exact-json.js';
import { textTable } from '../../scripts/cli/output/text-table.js';
import { requestHandler } from '../../scripts/cli/request-handler.js';
import { localDynamoDbClient } from '../../scripts/local/engine/local-engine.js';

const [endpoint, tableName, mode, prefix] = process.argv.slice(2);
const client = localDynamoDbClient(endpoint as string, { requestHandler });

type Item = Record<string, AttributeValue>;
const items: Item[] = [];
for await (const page of paginateScan({ client }, { TableName: tableName })) {
  items.push(...(page.Items ?? []).filter((item) => item.rawBody !== undefined));
}
const refusals = items
  .map((item) => ({
    digest: item.digest?.S ?? '',
    lastReceivedAt: item.lastReceivedAt?.S ?? '',
    deliveries: Number(item.deliveries?.N ?? 0),
    status: Number(item.status?.N ?? 0),
    problem: item.problem?.S ?? '',
    reference: item.reference?.S,
    bodyBytes: Number(item.bodyBytes?.N ?? 0),
    body: item.rawBody?.B ?? new Uint8Array(),
    headers: JSON.parse(item.headers?.S ?? '{}') as Record<string, string>,
  }))
  .sort(
    (a, b) => b.lastReceivedAt.localeCompare(a.lastReceivedAt) || a.digest.localeCompare(b.digest),
  );

if (mode === 'json') {
  const shown = refusals.map(({ body, ...refusal }) => ({
    ...refusal,
    body: Buffer.from(body).toString('utf8'),
    bodyBase64: Buffer.from(body).toString('base64'),
  }));
  process.stdout.write(`${exactJson(shown, 2)}\n`);
} else if (mode === 'prefix') {
  const found = refusals.filter((refusal) => refusal.digest.startsWith(prefix ?? ''));
  process.stdout.write(`${found.length} found: ${found[0]?.digest ?? ''}\n`);
} else {
  const rows = refusals.map((refusal) => [
    refusal.lastReceivedAt,
    String(refusal.deliveries),
    String(refusal.status),
    refusal.problem,
    refusal.reference ?? '',
    String(refusal.bodyBytes),
    refusal.digest.slice(0, 16),
  ]);
  process.stdout.write(
    textTable(['Last', 'Times', 'Status', 'Problem', 'Ref', 'Bytes', 'Digest'], rows),
  );
}
client.destroy();
