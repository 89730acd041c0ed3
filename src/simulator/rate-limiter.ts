import { LIMITS } from '../api/schemas';

export interface RateLimits {
  readonly requestsPerToken: number;
  readonly actionsPerToken: number;
  readonly requestsPerAccount: number;
  /** Section 8 counts per minute; tests shrink the window. */
  readonly windowMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  requestsPerToken: LIMITS.requestsPerTokenPerMinute,
  actionsPerToken: LIMITS.actionsPerTokenPerMinute,
  requestsPerAccount: LIMITS.requestsPerAccountPerMinute,
  windowMs: 60_000,
};

export interface Budget {
  readonly key: string;
  readonly limit: number;
}

export interface RateLimitVerdict {
  readonly allowed: boolean;
  /** The tightest budget after this request: what the `RateLimit-*` headers report. */
  readonly limit: number;
  readonly remaining: number;
  readonly resetSeconds: number;
  /** Set when refused. */
  readonly retryAfterSeconds?: number;
}

/**
 * Fixed windows per budget, opened by the first request that counts against it. A refused request
 * spends nothing, so a client that waits for `Retry-After` gets through.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly windowMs: number) {}

  public check(budgets: readonly Budget[], now: number): RateLimitVerdict {
    const states = this.states(budgets, now);
    const exceeded = states.filter((s) => s.window.count >= s.budget.limit);
    if (exceeded.length > 0) {
      const longest = exceeded.reduce((a, b) => (b.resetMs > a.resetMs ? b : a));
      const resetSeconds = Math.max(1, Math.ceil(longest.resetMs / 1000));
      return { allowed: false, limit: longest.budget.limit, remaining: 0, resetSeconds, retryAfterSeconds: resetSeconds };
    }
    for (const s of states) s.window.count += 1;
    return { allowed: true, ...tightest(states) };
  }

  /** The tightest budget as it stands, spending nothing: for answers refused before counting. */
  public peek(budgets: readonly Budget[], now: number): RateLimitVerdict {
    const states = this.states(budgets, now);
    return { allowed: states.every((s) => s.window.count < s.budget.limit), ...tightest(states) };
  }

  private states(budgets: readonly Budget[], now: number): WindowState[] {
    return budgets.map((budget) => {
      let window = this.windows.get(budget.key);
      if (!window || now >= window.start + this.windowMs) {
        window = { start: now, count: 0 };
        this.windows.set(budget.key, window);
      }
      return { budget, window, resetMs: window.start + this.windowMs - now };
    });
  }
}

interface WindowState {
  readonly budget: Budget;
  readonly window: { start: number; count: number };
  readonly resetMs: number;
}

function tightest(states: readonly WindowState[]): Omit<RateLimitVerdict, 'allowed'> {
  const t = states.reduce((a, b) => (b.budget.limit - b.window.count < a.budget.limit - a.window.count ? b : a));
  return { limit: t.budget.limit, remaining: Math.max(0, t.budget.limit - t.window.count), resetSeconds: Math.max(1, Math.ceil(t.resetMs / 1000)) };
}
