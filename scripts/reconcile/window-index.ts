/**
 * What reconcile holds of each reference recorded in the window until the report ends: a slot
 * (a small integer in a Map keyed by the reference), and in typed arrays indexed by slot the
 * digest of its compared values and whether the report named it. About 100 bytes a reference
 * where a string or object of its values cost several times that; the values themselves are read
 * again for the few that differ.
 */
export class WindowIndex {
  readonly #slots = new Map<string, number>();
  #digests = new Float64Array(1024);
  #seen = new Uint8Array(1024);
  #seenCount = 0;

  get size(): number {
    return this.#slots.size;
  }

  /** Records a reference and its digest (a repeated reference keeps the later digest). */
  add(reference: string, digest: number): void {
    let slot = this.#slots.get(reference);
    if (slot === undefined) {
      slot = this.#slots.size;
      this.#slots.set(reference, slot);
      if (slot === this.#digests.length) this.#grow();
    }
    this.#digests[slot] = digest;
  }

  /** The digest held for `reference` (undefined: not recorded in the window); marks it seen. */
  see(reference: string): number | undefined {
    const slot = this.#slots.get(reference);
    if (slot === undefined) return undefined;
    if (this.#seen[slot] === 0) this.#seenCount += 1;
    this.#seen[slot] = 1;
    return this.#digests[slot];
  }

  /** References of the window the report did not name. */
  get unseenCount(): number {
    return this.#slots.size - this.#seenCount;
  }

  /** References the report never named, in the order they were read. */
  *unseen(): Generator<string> {
    for (const [reference, slot] of this.#slots) if (this.#seen[slot] === 0) yield reference;
  }

  isUnseen(reference: string): boolean {
    const slot = this.#slots.get(reference);
    return slot !== undefined && this.#seen[slot] === 0;
  }

  #grow(): void {
    const digests = new Float64Array(this.#digests.length * 2);
    digests.set(this.#digests);
    const seen = new Uint8Array(this.#seen.length * 2);
    seen.set(this.#seen);
    [this.#digests, this.#seen] = [digests, seen];
  }
}
