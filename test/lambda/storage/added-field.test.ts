import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventForRecord } from '../../../lambda/events/stream-record-event.js';
import { JsonNumber } from '../../../lambda/json/json-number.js';
import { type SerializableValue, stringifyJson } from '../../../lambda/json/json-text.js';
import { DynamoDbTransactionStore } from '../../../lambda/storage/dynamodb-transaction-store.js';
import { writeListing } from '../../../scripts/cli/output/listing.js';
import type { OutputFormat } from '../../../scripts/cli/output/output-options.js';
import { readReport } from '../../../scripts/operations/reconcile/gateway-report.js';
import {
  type Finding,
  reconcile,
  tableSources,
} from '../../../scripts/operations/reconcile/reconcile.js';
import { transactionViewOf } from '../../../scripts/operations/transaction-listing.js';
import { displayValue } from '../../../scripts/table/stored-item.js';
import { timeWindow } from '../../../scripts/table/time-window.js';
import { getTransaction, listByTime } from '../../../scripts/table/transaction-queries.js';
import { createTestTable, engines, type TestTable } from '../../support/engines.js';
import { feeFields, feeTable } from '../../support/fee-fields.js';
import { callbackEvent, signed, transaction } from '../../support/fixtures.js';
import { receiverWith } from '../../support/receiver.js';
import { storedItem } from '../../support/stored-items.js';
import { streamRecord } from '../../support/stream-records.js';

/**
 * A field added to the declaration (the fixture's `fee`, version 2) reaches every consumer, and
 * a transaction stored before it was declared (its fee then an extra member) survives the
 * upgrade: still a duplicate of its redelivery, its fee read back as the field.
 */
describe.each(engines)('a field added in a later declaration version, on %s', (engine) => {
  let table: TestTable;
  let context: { client: TestTable['client']; tableName: string; fields: typeof feeFields };

  beforeEach(async () => {
    table = await createTestTable(engine, feeTable);
    context = { client: table.client, tableName: table.tableName, fields: feeFields };
  });
  afterEach(() => table.drop());

  const store = () => new DynamoDbTransactionStore(table.client, table.tableName);
  const beforeUpgrade = () => receiverWith(store());
  const afterUpgrade = () => receiverWith(store(), { fields: feeFields });
  const answer = async (
    invoke: ReturnType<typeof receiverWith>,
    fields: Record<string, SerializableValue>,
  ) => {
    const response = await invoke(callbackEvent(signed(fields)));
    return `${response.statusCode} ${response.headers?.['x-callback-outcome'] ?? ''}`.trim();
  };
  const window = () =>
    timeWindow(
      new Date(Date.now() - 60_000).toISOString(),
      new Date(Date.now() + 60_000).toISOString(),
    );
  const listed = async (format: OutputFormat) => {
    const out = new PassThrough();
    const written = text(out);
    const view = transactionViewOf(feeFields);
    await writeListing(listByTime(context, window(), {}), view, { format }, {}, out);
    out.end();
    return written;
  };
  const reconciled = async (report: readonly Record<string, SerializableValue>[]) => {
    const lines = report.map((row) => stringifyJson(row)).join('\n');
    const findings: Finding[] = [];
    const summary = await reconcile(
      {
        report: readReport(Readable.from([lines]), 'jsonl', feeFields),
        ...tableSources(context, window()),
      },
      (finding) => {
        findings.push(finding);
      },
    );
    return { summary, findings };
  };
  const reportRow = (fields: Record<string, SerializableValue>, fee: SerializableValue) => {
    const { reference, amount, currency, type, status } = fields;
    return { reference, amount, currency, type, status, fee } as Record<string, SerializableValue>;
  };

  it('follows the field through callback, stored item, event, get, list, export and reconcile', async () => {
    // Prepare
    const invoke = afterUpgrade();
    const fields = transaction({ fee: new JsonNumber('12.50') });
    const reference = fields.reference as string;

    // Act
    const first = await answer(invoke, fields);
    const item = await storedItem(table, { reference });
    const event = eventForRecord(streamRecord('INSERT', item ?? {}), feeFields);
    const got = await getTransaction(context, reference);
    const [jsonl, csv, tableView] = [
      await listed('jsonl'),
      await listed('csv'),
      await listed('table'),
    ];
    const agreeing = await reconciled([reportRow(fields, new JsonNumber('12.5'))]);
    const differing = await reconciled([reportRow(fields, new JsonNumber('13'))]);
    const sameFeeOtherForm = await answer(invoke, { ...fields, fee: new JsonNumber('1.25e1') });
    const otherFee = await answer(invoke, { ...fields, fee: new JsonNumber('13') });

    // Assess
    expect(first).toBe('204 recorded');
    expect(item?.fee).toEqual({ N: '12.5' });
    expect(item?.extra).toBeUndefined();
    expect(item?.fieldsVersion).toEqual({ N: '2' });
    expect(event?.detail).toMatchObject({ reference, fee: '12.5', extra: {} });
    expect(displayValue(got.transaction?.fee)).toBe('12.5');
    expect(JSON.parse(jsonl)).toMatchObject({ reference, fee: 12.5 });
    expect(csv.split('\n')[0]).toBe(
      'reference,receivedAt,id,username,amount,currency,type,status,fee',
    );
    expect(csv).toContain(',12.5\n');
    expect(tableView.split('\n')[0]).toMatch(/\bfee\s*$/);
    expect(agreeing.summary).toMatchObject({ agreeing: 1, mismatch: 0 });
    expect(differing.findings).toEqual([
      expect.objectContaining({
        kind: 'mismatch',
        differences: [{ field: 'fee', report: '13', recorded: '12.5' }],
      }),
    ]);
    expect(sameFeeOtherForm).toBe('204 duplicate');
    expect(otherFee).toBe('409');
  });

  it('reads a transaction stored before the field was declared into the field, and keeps it a duplicate', async () => {
    // Prepare: stored by the receiver before the upgrade, `fee` then an extra member.
    const fields = transaction({ fee: new JsonNumber('12.50'), channel: 'web' });
    const reference = fields.reference as string;
    const stored = await answer(beforeUpgrade(), fields);
    const before = await storedItem(table, { reference });
    const invoke = afterUpgrade();

    // Act
    const event = eventForRecord(streamRecord('INSERT', before ?? {}), feeFields);
    const got = await getTransaction(context, reference);
    const jsonl = await listed('jsonl');
    const report = await reconciled([reportRow(fields, new JsonNumber('12.5'))]);
    const redelivered = await answer(invoke, fields);
    const withoutChannel = await answer(invoke, { ...fields, channel: 'mobile' });
    const otherFee = await answer(invoke, { ...fields, fee: new JsonNumber('13') });
    const after = await storedItem(table, { reference });

    // Assess
    expect(stored).toBe('204 recorded');
    expect(before?.extra).toEqual({ S: '{"fee":12.50,"channel":"web"}' });
    expect(before?.fee).toBeUndefined();
    expect(before?.fieldsVersion).toBeUndefined();
    expect(event?.detail).toMatchObject({ reference, fee: '12.5', extra: { channel: 'web' } });
    expect(displayValue(got.transaction?.fee)).toBe('12.5');
    expect(got.transaction?.extra).toBe('{"channel":"web"}');
    expect(JSON.parse(jsonl)).toMatchObject({ reference, fee: 12.5 });
    expect(report.summary).toMatchObject({ agreeing: 1, mismatch: 0 });
    expect(redelivered).toBe('204 duplicate');
    expect(withoutChannel).toBe('204 duplicate');
    expect(otherFee).toBe('409');
    expect(after).toEqual(before);
  });

  it('judges an earlier item by its version: another amount conflicts, a fee it never had does not', async () => {
    // Prepare: stored before the upgrade, without a fee.
    const fields = transaction();
    await answer(beforeUpgrade(), fields);
    const invoke = afterUpgrade();

    // Act
    const otherAmount = await answer(invoke, { ...fields, amount: 1 });
    const nowWithFee = await answer(invoke, { ...fields, fee: new JsonNumber('3') });

    // Assess
    expect(otherAmount).toBe('409');
    expect(nowWithFee).toBe('204 duplicate');
  });
});
