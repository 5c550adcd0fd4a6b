import type { KeepOutcome, RefusalRecord, RefusalStore } from '../../lambda/refusals/refusal.js';

/**
 * One refusal per body digest, as in the table, and no bound unless given one (it counts new
 * bodies since it was made, not per minute); for unit tests and the CPU benchmark.
 */
export class MemoryRefusalStore implements RefusalStore {
  readonly refusals = new Map<string, RefusalRecord & { deliveries: number }>();

  constructor(private readonly limit = Number.POSITIVE_INFINITY) {}

  async keep(refusal: RefusalRecord): Promise<KeepOutcome> {
    const kept = this.refusals.get(refusal.digest);
    if (!kept && this.refusals.size >= this.limit) return 'not-kept';
    this.refusals.set(refusal.digest, {
      ...(kept ?? refusal),
      deliveries: (kept?.deliveries ?? 0) + 1,
    });
    return kept ? 'counted' : 'kept';
  }
}
