import type { RefusalRecord, RefusalStore } from '../../lambda/refusals/refusal.js';

/**
 * Refusals kept in process memory, one per body digest like the table: for unit tests and for
 * measuring the handler's CPU cost. Not for production: nothing is durable.
 */
export class MemoryRefusalStore implements RefusalStore {
  readonly refusals = new Map<string, RefusalRecord & { deliveries: number }>();

  async keep(refusal: RefusalRecord): Promise<void> {
    const kept = this.refusals.get(refusal.digest);
    this.refusals.set(refusal.digest, {
      ...(kept ?? refusal),
      deliveries: (kept?.deliveries ?? 0) + 1,
    });
  }
}
