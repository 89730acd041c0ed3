import type { OperationOutcome } from './state';

export type FaultEffect =
  /** Answer with this status and code instead of running the request; with `takesEffect`, a write runs first. */
  | { readonly type: 'error'; readonly status: number; readonly code?: string; readonly retryAfterSeconds?: number; readonly takesEffect?: boolean }
  /** Wait before handling the request. */
  | { readonly type: 'latency'; readonly ms: number }
  /** Run the request, then close the connection without answering: a lost response. */
  | { readonly type: 'drop_response' }
  /** The power action's operation ends like this. */
  | { readonly type: 'operation'; readonly outcome: OperationOutcome }
  /** Serve the last good value of a read with `meta.stale`, as when live data is unavailable. */
  | { readonly type: 'stale' }
  /**
   * Serve reads from a cache shared between callers (section 1, rule 6): a value read less than
   * `maxAgeSeconds` ago is served again, without the stale flag, even after a write changed it.
   */
  | { readonly type: 'cache'; readonly maxAgeSeconds: number };

export interface FaultRule {
  /** `METHOD /template`, either part may be `*`; e.g. `POST /servers/{serverId}/actions`, `GET *`. Default `* *`. */
  readonly endpoint?: string;
  readonly serverId?: string;
  /** Applies to the next N matching requests, then expires. Default: until cleared. */
  readonly times?: number;
  /** Lets this many matching requests through untouched first (e.g. the third write of a run fails). Default 0. */
  readonly skip?: number;
  /** Applies to each matching request with this probability, drawn from the seeded generator. */
  readonly probability?: number;
  readonly effect: FaultEffect;
}

interface ActiveRule {
  readonly id: number;
  readonly rule: FaultRule;
  remaining: number;
  toSkip: number;
}

/** Seeded so that a test with probabilistic faults fails the same way every run. */
/* eslint-disable no-bitwise -- mulberry32 is a 32-bit integer mixing function */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/* eslint-enable no-bitwise */

export class FaultInjector {
  private rules: ActiveRule[] = [];
  private nextId = 1;
  private readonly random: () => number;

  constructor(seed = 1) {
    this.random = mulberry32(seed);
  }

  public add(rule: FaultRule): number {
    const id = this.nextId++;
    this.rules.push({ id, rule, remaining: rule.times ?? Number.POSITIVE_INFINITY, toSkip: rule.skip ?? 0 });
    return id;
  }

  public clear(): void {
    this.rules = [];
  }

  /** The rules in force, with how many times each may still fire (null: no limit). */
  public list(): Array<{ readonly id: number; readonly rule: FaultRule; readonly remaining: number | null }> {
    return this.rules.map((r) => ({ id: r.id, rule: r.rule, remaining: Number.isFinite(r.remaining) ? r.remaining : null }));
  }

  /** The effects for this request; counts down `times` of each rule that fires. */
  public take(method: string, template: string, serverId: string | undefined): FaultEffect[] {
    const effects: FaultEffect[] = [];
    for (const active of this.rules) {
      const { rule } = active;
      if (active.remaining <= 0 || !endpointMatches(rule.endpoint ?? '* *', method, template)) continue;
      if (rule.serverId !== undefined && rule.serverId !== serverId) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      if (active.toSkip > 0) {
        active.toSkip -= 1;
        continue;
      }
      active.remaining -= 1;
      effects.push(rule.effect);
    }
    this.rules = this.rules.filter((r) => r.remaining > 0);
    return effects;
  }
}

function endpointMatches(pattern: string, method: string, template: string): boolean {
  const [m, t = '*'] = pattern.trim().split(/\s+/);
  return (m === '*' || m.toUpperCase() === method) && (t === '*' || t === template);
}
