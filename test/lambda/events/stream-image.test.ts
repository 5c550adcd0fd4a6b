import { describe, expect, it } from 'vitest';
import { fromStreamImage, withExtraDecoded } from '../../../lambda/events/stream-image.js';

describe('reading a stream image', () => {
  it('turns every DynamoDB attribute type into a plain value, numbers as their decimal text', () => {
    expect(
      fromStreamImage({
        text: { S: 'Çağrı' },
        amount: { N: '9007199254740993.10' },
        confirmed: { BOOL: false },
        missing: { NULL: true },
        nested: { M: { count: { N: '2' } } },
        list: { L: [{ S: 'a' }, { N: '1' }] },
        blob: { B: 'AAEC' },
        names: { SS: ['x', 'y'] },
        numbers: { NS: ['1.50', '2'] },
        blobs: { BS: ['AA==', 'AQ=='] },
      }),
    ).toEqual({
      text: 'Çağrı',
      amount: '9007199254740993.10',
      confirmed: false,
      missing: null,
      nested: { count: '2' },
      list: ['a', '1'],
      blob: 'AAEC',
      names: ['x', 'y'],
      numbers: ['1.50', '2'],
      blobs: ['AA==', 'AQ=='],
    });
  });

  it('leaves binary bytes as they came (the SDK streams client reads them so), never as an object', () => {
    const bytes = new Uint8Array([0, 1, 2]);
    const image = fromStreamImage({ blob: { B: bytes }, blobs: { BS: [bytes] } } as never);
    expect(image.blob).toBe(bytes);
    expect(image.blobs).toEqual([bytes]);
  });

  it('refuses an attribute value of no known type, naming what it carried', () => {
    // The SDK's reader's own messages.
    expect(() => fromStreamImage({ odd: { X: 'y' } as never })).toThrow(
      'Unsupported type passed: X',
    );
    expect(() => fromStreamImage({ empty: {} as never })).toThrow('No value defined: {}');
  });
});

describe('decoding the stored extra members', () => {
  it('reads the extra JSON text back with numbers as their exact text', () => {
    expect(
      withExtraDecoded({
        reference: 'ref-1',
        extra: '{"fee":1050.70,"tags":["a",2],"inner":{"ok":true,"none":null}}',
      }),
    ).toEqual({
      reference: 'ref-1',
      extra: { fee: '1050.70', tags: ['a', '2'], inner: { ok: true, none: null } },
    });
  });

  it('leaves an image without extra text as it is', () => {
    const fields = { reference: 'ref-2', extra: { already: 'decoded' } };
    expect(withExtraDecoded(fields)).toBe(fields);
  });
});
