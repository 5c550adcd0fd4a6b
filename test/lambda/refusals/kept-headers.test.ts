import { describe, expect, it } from 'vitest';
import { keptHeaders } from '../../../lambda/refusals/kept-headers.js';
import { maxKeptHeaderBytes, maxKeptHeaders } from '../../../lambda/refusals/refusal-limits.js';

describe('keptHeaders', () => {
  it('keeps every header of an ordinary delivery but the credentials, and drops none', () => {
    const kept = keptHeaders({
      'Content-Type': 'application/json',
      'X-Api-Key': 'secret',
      Authorization: 'Bearer secret',
      Cookie: 'a=b',
      'User-Agent': 'gateway/1.0',
      'X-Missing': undefined,
    });
    expect(kept).toEqual({
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'gateway/1.0' },
      dropped: 0,
    });
  });

  it('stops at the count cap, Content-Type first whatever its place', () => {
    const many = Object.fromEntries(
      Array.from({ length: maxKeptHeaders + 10 }, (_, i) => [`x-${i}`, 'v']),
    );
    const kept = keptHeaders({ ...many, 'content-type': 'application/json' });
    expect(Object.keys(kept.headers)).toHaveLength(maxKeptHeaders);
    expect(Object.keys(kept.headers)[0]).toBe('content-type');
    expect(kept.dropped).toBe(11);
  });

  it('leaves out a header that would pass the byte cap whole, never cut, and keeps smaller ones after it', () => {
    const kept = keptHeaders({
      'x-small': 'a',
      'x-huge': 'h'.repeat(maxKeptHeaderBytes),
      'x-after': 'b',
    });
    expect(kept.headers).toEqual({ 'x-small': 'a', 'x-after': 'b' });
    expect(kept.dropped).toBe(1);
  });
});
