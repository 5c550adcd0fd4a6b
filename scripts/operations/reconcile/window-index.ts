/**
 * What reconcile holds of each reference recorded in the window until the report ends: the
 * reference's bytes, the digest of its compared values and whether the report named it, all in
 * typed arrays outside the JavaScript heap, found through an open-addressing hash table. About 65
 * bytes for a 38-character reference, where a Map of strings cost 95 and an object or string of
 * its values several times that; and nothing the garbage collector must trace, so the heap it
 * sizes itself by stays small. The values themselves are read again for the few that differ.
 */
export class WindowIndex {
  #count = 0;
  #seenCount = 0;
  /** Every reference's UTF-8 bytes, end to end; slot i's are bytes[starts[i]…starts[i+1]). */
  #bytes = Buffer.alloc(64 * 1024);
  #starts = new Uint32Array(1025);
  #digests = new Float64Array(1024);
  #seen = new Uint8Array(1024);
  /** Slot + 1 per bucket (0: empty), linear probing, at most half full. */
  #table = new Uint32Array(4096);
  /** Room to encode a reference being looked up, without allocating. */
  #scratch = Buffer.alloc(1024);

  get size(): number {
    return this.#count;
  }

  /** References of the window the report did not name. */
  get unseenCount(): number {
    return this.#count - this.#seenCount;
  }

  /** Records a reference and its digest (a repeated reference keeps the later digest). */
  add(reference: string, digest: number): void {
    const [bucket, slot] = this.#find(reference);
    if (slot !== undefined) {
      this.#digests[slot] = digest;
      return;
    }
    const length = this.#scratchLength;
    const start = this.#starts[this.#count] as number;
    if (this.#count + 1 === this.#digests.length) this.#growSlots();
    if (start + length > this.#bytes.length) this.#growBytes(start + length);
    this.#scratch.copy(this.#bytes, start, 0, length);
    this.#starts[this.#count + 1] = start + length;
    this.#digests[this.#count] = digest;
    this.#table[bucket] = this.#count + 1;
    this.#count += 1;
    if (this.#count * 2 > this.#table.length) this.#rehash();
  }

  /** The digest held for `reference` (undefined: not recorded in the window); marks it seen. */
  see(reference: string): number | undefined {
    const [, slot] = this.#find(reference);
    if (slot === undefined) return undefined;
    if (this.#seen[slot] === 0) this.#seenCount += 1;
    this.#seen[slot] = 1;
    return this.#digests[slot];
  }

  isUnseen(reference: string): boolean {
    const [, slot] = this.#find(reference);
    return slot !== undefined && this.#seen[slot] === 0;
  }

  /** References the report never named, in the order they were read. */
  *unseen(): Generator<string> {
    for (let slot = 0; slot < this.#count; slot++) {
      if (this.#seen[slot] === 0) yield this.#referenceAt(slot);
    }
  }

  #scratchLength = 0;

  /** The bucket `reference` is in or would go to, and its slot when it is there. */
  #find(reference: string): [bucket: number, slot: number | undefined] {
    if (reference.length * 3 > this.#scratch.length) {
      this.#scratch = Buffer.alloc(reference.length * 3);
    }
    const length = this.#scratch.write(reference, 'utf8');
    this.#scratchLength = length;
    const mask = this.#table.length - 1;
    for (let bucket = hashBytes(this.#scratch, length) & mask; ; bucket = (bucket + 1) & mask) {
      const entry = this.#table[bucket] as number;
      if (entry === 0) return [bucket, undefined];
      const slot = entry - 1;
      const start = this.#starts[slot] as number;
      const end = this.#starts[slot + 1] as number;
      if (
        end - start === length &&
        this.#scratch.compare(this.#bytes, start, end, 0, length) === 0
      ) {
        return [bucket, slot];
      }
    }
  }

  #referenceAt(slot: number): string {
    return this.#bytes.toString('utf8', this.#starts[slot], this.#starts[slot + 1]);
  }

  #growSlots(): void {
    const size = this.#digests.length * 2;
    const starts = new Uint32Array(size + 1);
    starts.set(this.#starts);
    const digests = new Float64Array(size);
    digests.set(this.#digests);
    const seen = new Uint8Array(size);
    seen.set(this.#seen);
    [this.#starts, this.#digests, this.#seen] = [starts, digests, seen];
  }

  #growBytes(needed: number): void {
    const bytes = Buffer.alloc(Math.max(needed, this.#bytes.length * 2));
    this.#bytes.copy(bytes);
    this.#bytes = bytes;
  }

  #rehash(): void {
    const table = new Uint32Array(this.#table.length * 2);
    const mask = table.length - 1;
    for (let slot = 0; slot < this.#count; slot++) {
      const start = this.#starts[slot] as number;
      const end = this.#starts[slot + 1] as number;
      let bucket = hashBytes(this.#bytes.subarray(start, end), end - start) & mask;
      while (table[bucket] !== 0) bucket = (bucket + 1) & mask;
      table[bucket] = slot + 1;
    }
    this.#table = table;
  }
}

/** FNV-1a over the first `length` bytes: spreads references that differ in one digit. */
function hashBytes(bytes: Uint8Array, length: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < length; i++) hash = Math.imul(hash ^ (bytes[i] as number), 0x01000193);
  return hash >>> 0;
}
