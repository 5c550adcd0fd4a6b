import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptedKey } from '../../../lambda/auth/accepted-keys.js';
import { callbackEvent, specKey } from '../../support/fixtures.js';
import { logCapture } from '../../support/log-capture.js';
import { MemoryRefusalStore } from '../../support/memory-refusal-store.js';
import { MemoryTransactionStore } from '../../support/memory-transaction-store.js';
import { receiverWith } from '../../support/receiver.js';

/**
 * The outcome log's line for a refusal past the minute's bound: nothing of that delivery is kept,
 * so the line alone must say who sent it and which body it was.
 */
describe('the outcome log of a refusal not kept', () => {
  const logs = logCapture();
  afterEach(() => logs.stop());

  it('names the key by its id, the source IP and the body by its SHA-256, never the key or body', async () => {
    const [kept, unkept] = ['{"kept-body":', '{"unkept-body-7f3a":'];

    logs.start(); // before the receiver is built: its logger takes the level then
    const invoke = receiverWith(new MemoryTransactionStore(), {
      refusals: new MemoryRefusalStore(1),
    });
    await invoke(callbackEvent(kept));
    await invoke(callbackEvent(unkept));
    logs.stop();

    const refused = logs
      .lines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.message === 'callback refused');
    expect(refused).toHaveLength(2);
    expect(refused[0]).not.toHaveProperty('kept');
    expect(refused[0]).not.toHaveProperty('keyId');
    expect(refused[1]).toMatchObject({
      kept: false,
      keyId: acceptedKey(specKey).id,
      sourceIp: '203.0.113.7',
      digest: createHash('sha256').update(unkept).digest('hex'),
    });
    const text = logs.lines().join('\n');
    expect(text).not.toContain(specKey);
    expect(text).not.toContain('unkept-body-7f3a');
  });
});
