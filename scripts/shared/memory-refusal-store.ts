import type { RefusalRecord, RefusalStore } from '../../lambda/refusals/refusal.js';

/** One refusal per body digest, as in the table; for unit tests and the CPU benchmark. */
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
