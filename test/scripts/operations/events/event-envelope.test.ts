import { describe, expect, it } from 'vitest';
import { putEventsEntry } from '../../../../lambda/events/stream-record-event.js';
import { envelopeBody } from '../../../../scripts/operations/events/event-envelope.js';
import { parseExact } from '../../../support/local-cli.js';

describe('the envelope of a forwarded event', () => {
  it("carries EventBridge's members in order and the entry's detail text unchanged", () => {
    const entry = {
      ...putEventsEntry({ detailType: 'Transaction Completed', detail: {} as never }, 'local'),
      Detail: '{"id":"9007199254740993","amount":"1050.70","extra":{"n":12345678901234567890}}',
    };

    const body = envelopeBody(entry, {
      id: 'e1',
      time: new Date('2026-11-25T13:24:19.731Z'),
      region: 'eu-west-1',
    });

    expect(Object.keys(JSON.parse(body))).toEqual([
      'version',
      'id',
      'detail-type',
      'source',
      'account',
      'time',
      'region',
      'resources',
      'detail',
    ]);
    expect(parseExact(body)).toEqual({
      version: '0',
      id: 'e1',
      'detail-type': 'Transaction Completed',
      source: 'callback-receiver',
      account: '000000000000',
      time: '2026-11-25T13:24:19Z',
      region: 'eu-west-1',
      resources: [],
      detail: { id: '9007199254740993', amount: '1050.70', extra: { n: '12345678901234567890' } },
    });
    expect(body.endsWith(`"detail":${entry.Detail}}`)).toBe(true);
  });
  it('refuses an entry without its source, detail type or detail, rather than send half an event', () => {
    const origin = { id: 'e1', time: new Date(), region: 'eu-west-1' };
    const whole = {
      Source: 'callback-receiver',
      DetailType: 'Transaction Completed',
      Detail: '{}',
    };

    for (const missing of ['Source', 'DetailType', 'Detail'] as const) {
      const { [missing]: _left, ...entry } = whole;
      expect(() => envelopeBody(entry, origin)).toThrow(
        'A PutEvents entry needs Source, DetailType and Detail',
      );
    }
    expect(JSON.parse(envelopeBody(whole, { ...origin, account: '123456789012' })).account).toBe(
      '123456789012',
    );
  });
});
