import { describe, expect, it } from 'vitest';
import { secretHostName } from '../../../../scripts/console/security/secret-host-name.js';

describe('secretHostName', () => {
  it('is one label of 32 hex digits (128 bits) under .localhost, which browsers send to loopback', () => {
    expect(secretHostName()).toMatch(/^[0-9a-f]{32}\.localhost$/);
  });

  it('is a new name each time: 10,000 calls, 10,000 names', () => {
    const names = new Set(Array.from({ length: 10_000 }, secretHostName));
    expect(names.size).toBe(10_000);
  });
});
