export interface StoredResponse {
  readonly status: number;
  readonly body: string;
}

export type IdempotencyLookup =
  | { readonly kind: 'new' }
  | { readonly kind: 'replay'; readonly response: StoredResponse }
  | { readonly kind: 'in_progress' }
  | { readonly kind: 'reused' };

/** How long a key is remembered; not shown in the spec. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** How often expired keys are let go. */
export const IDEMPOTENCY_SWEEP_MS = 60 * 1000;

/**
 * The most keys kept at once, the oldest let go first past it: a client that sends a new key with
 * every request for a day cannot grow the simulator without end. Not shown in the spec.
 */
export const MAX_IDEMPOTENCY_KEYS = 100_000;

/**
 * Section 4, rules 2-4, with keys scoped per token: the first result of a key is kept and replayed;
 * the same key with another request is refused; a key whose first request is still running is
 * refused until it finishes.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, { fingerprint: string; response?: StoredResponse; expiresAt: number }>();
  private nextSweep = 0;

  constructor(private readonly maxKeys = MAX_IDEMPOTENCY_KEYS) {}

  /** Forgets every key: a reset account is a new account, and no answer of the old one is replayed to it. */
  public clear(): void {
    this.entries.clear();
  }

  /** How many keys are kept now. */
  public get size(): number {
    return this.entries.size;
  }

  public begin(tokenId: string, key: string, fingerprint: string, now: number): IdempotencyLookup {
    this.sweep(now);
    const id = `${tokenId}\u0000${key}`;
    const entry = this.entries.get(id);
    if (!entry || entry.expiresAt <= now) {
      // Re-inserted, so the map stays in the order keys were first used: the oldest is first.
      this.entries.delete(id);
      this.entries.set(id, { fingerprint, expiresAt: now + IDEMPOTENCY_KEY_TTL_MS });
      if (this.entries.size > this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
      return { kind: 'new' };
    }
    if (entry.fingerprint !== fingerprint) {
      return { kind: 'reused' };
    }
    return entry.response ? { kind: 'replay', response: entry.response } : { kind: 'in_progress' };
  }

  /** Whether this request would be answered from the store (a completed first request with this key). */
  public wouldReplay(tokenId: string, key: string, fingerprint: string, now: number): boolean {
    const entry = this.entries.get(`${tokenId}\u0000${key}`);
    return !!entry && entry.expiresAt > now && entry.fingerprint === fingerprint && entry.response !== undefined;
  }

  public complete(tokenId: string, key: string, response: StoredResponse): void {
    const entry = this.entries.get(`${tokenId}\u0000${key}`);
    if (entry) entry.response = response;
  }

  /** Lets go of the expired keys, at most once every IDEMPOTENCY_SWEEP_MS. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + IDEMPOTENCY_SWEEP_MS;
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(id);
    }
  }

  /** Forgets a key whose request failed inside the simulator, so a retry is not stuck "in progress". */
  public abandon(tokenId: string, key: string): void {
    this.entries.delete(`${tokenId}\u0000${key}`);
  }
}
