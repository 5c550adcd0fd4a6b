import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { escapeNonAscii } from '../../../lambda/callback/callback-hash.js';
import { StoreUnavailableError } from '../../../lambda/callback/errors.js';
import { stringifyJson } from '../../../lambda/json/json-text.js';
import type { TransactionStore } from '../../../lambda/storage/transaction-store.js';
import { callbackEvent, signed, specKey, transaction } from '../../support/fixtures.js';
import { MemoryTransactionStore } from '../../support/memory-transaction-store.js';
import { receiverWith } from '../../support/receiver.js';

/**
 * Every path the handler can take, with logging at its most verbose: no line may carry the key,
 * the salted text that was hashed, or a person's name.
 */
describe('logs', () => {
  const lines: string[] = [];
  const previousLevel = process.env.POWERTOOLS_LOG_LEVEL;

  beforeAll(() => {
    process.env.POWERTOOLS_LOG_LEVEL = 'DEBUG';
    const capture = (chunk: unknown) => {
      lines.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  });

  afterAll(() => {
    vi.restoreAllMocks();
    if (previousLevel === undefined) delete process.env.POWERTOOLS_LOG_LEVEL;
    else process.env.POWERTOOLS_LOG_LEVEL = previousLevel;
  });

  it('never contain the key, the salted text or a name, on any path', async () => {
    const names = {
      username: 'zeynep.secretuser',
      firstName: 'Zeynepçik',
      lastName: 'Gizlisoyadı',
    };
    const fields = transaction(names);
    const unavailable: TransactionStore = {
      putIfAbsent: async () => {
        throw new StoreUnavailableError({
          cause: new Error(`write failed for ${names.firstName}`),
        });
      },
      keepConflict: async () => {},
    };
    const broken: TransactionStore = {
      putIfAbsent: async () => {
        throw new Error(`bug while handling ${names.lastName} with ${specKey}`);
      },
      keepConflict: async () => {},
    };
    const invoke = receiverWith(new MemoryTransactionStore());
    const statuses = [
      await invoke(callbackEvent(signed(fields))), // 204 recorded
      await invoke(callbackEvent(signed(fields))), // 204 duplicate
      await invoke(callbackEvent(signed({ ...fields, amount: 5 }))), // 409
      await invoke(callbackEvent(signed(fields), { headers: { 'x-api-key': `${specKey}x` } })), // 401
      await invoke(callbackEvent(signed(fields, 'wrong'))), // 403
      await invoke(callbackEvent(`${stringifyJson(fields)},`)), // 400
      await invoke(callbackEvent(stringifyJson({ ...fields, currency: names.firstName }))), // 422
      await invoke(callbackEvent(signed(fields), { headers: { 'Content-Type': 'text/plain' } })), // 415
      await invoke(callbackEvent(`${signed(fields)}${' '.repeat(70_000)}`)), // 413
      await receiverWith(unavailable)(callbackEvent(signed(transaction(names)))), // 503
      await receiverWith(broken)(callbackEvent(signed(transaction(names)))), // 500
    ].map((response) => response.statusCode);

    expect(statuses).toEqual([204, 204, 409, 401, 403, 400, 422, 415, 413, 503, 500]);
    const output = lines.join('');
    expect(output).toContain('callback refused'); // the capture really saw the logs
    const hashedText = escapeNonAscii(stringifyJson({ ...fields, hash: '' }), 'lower');
    for (const secret of [
      specKey,
      hashedText,
      ...Object.values(names),
      escapeNonAscii(names.firstName, 'lower'),
    ]) {
      expect(output).not.toContain(secret);
    }
  });
});
