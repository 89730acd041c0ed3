/** A read's last good answer, served again by the `stale` and `cache` faults. */
export interface LastGoodRead {
  readonly data: unknown;
  readonly observedAt: string;
  readonly observedAtMs: number;
}

/** How many reads' answers are kept; each distinct path and query is one. */
export const LAST_GOOD_READS = 1_000;

/**
 * The last good answer of each recent read, the least recently used let go past `size`: a client
 * that varies its query string without end cannot grow the simulator.
 */
export class LastGoodReads {
  private readonly reads = new Map<string, LastGoodRead>();

  constructor(private readonly size = LAST_GOOD_READS) {}

  public get(key: string): LastGoodRead | undefined {
    const read = this.reads.get(key);
    if (read) {
      this.reads.delete(key);
      this.reads.set(key, read);
    }
    return read;
  }

  public set(key: string, read: LastGoodRead): void {
    this.reads.delete(key);
    this.reads.set(key, read);
    if (this.reads.size > this.size) this.reads.delete(this.reads.keys().next().value!);
  }

  public get count(): number {
    return this.reads.size;
  }

  /** Forgets every answer: a reset account's reads never fall back to the old account's. */
  public clear(): void {
    this.reads.clear();
  }
}
