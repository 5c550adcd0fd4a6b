/**
 * The receiver as lambda/receiver.ts builds it, configured by the environment, but over a store
 * that keeps nothing (every callback is new) and refusals kept nowhere: the memory benchmark's
 * in-memory subject, fast enough that thousands of requests overlap each one's time budget, and
 * whose memory is the receiver's alone (a store that kept the items would grow by design).
 */
import { loadConfig } from '../../lambda/config/config.js';
import { createReceiver } from '../../lambda/create-receiver.js';
import type { TransactionStore } from '../../lambda/storage/transaction-store.js';

const forgetful: TransactionStore = {
  putIfAbsent: async () => ({ kind: 'created' }),
  keepConflict: async () => {},
};

export const handler = createReceiver(loadConfig(process.env), {
  store: forgetful,
  refusals: { keep: async () => 'kept' as const },
}).handler;
