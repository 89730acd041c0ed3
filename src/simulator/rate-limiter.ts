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
  /** How the dashboard names it: the token's name, never its secret. */
  readonly label: string;
}

/** One fixed window of one budget, as the dashboard draws it. */
export interface BudgetWindow {
  readonly start: number;
  /** Requests counted against the budget. */
  readonly count: number;
  /** Requests refused with a 429 because this budget was spent. */
  readonly refused: number;
}

/** A budget's recent windows, oldest first, the current one last. */
export interface BudgetHistory {
  readonly key: string;
  readonly label: string;
  readonly limit: number;
  readonly windows: readonly BudgetWindow[];
}

/** Windows kept per budget for the dashboard: the current one and those before it. */
const HISTORY_WINDOWS = 30;

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
  private readonly windows = new Map<string, MutableWindow>();
  private readonly history = new Map<string, { budget: Budget; windows: MutableWindow[] }>();

  constructor(private readonly windowMs: number) {}

  public check(budgets: readonly Budget[], now: number): RateLimitVerdict {
    const states = this.states(budgets, now);
    const exceeded = states.filter((s) => s.window.count >= s.budget.limit);
    if (exceeded.length > 0) {
      for (const s of exceeded) s.window.refused += 1;
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

  /** Every budget used so far, with its recent windows: what the dashboard's budget chart draws. */
  public budgets(): BudgetHistory[] {
    return [...this.history.values()].map(({ budget, windows }) => ({
      key: budget.key, label: budget.label, limit: budget.limit, windows: windows.map((w) => ({ ...w })),
    }));
  }

  private states(budgets: readonly Budget[], now: number): WindowState[] {
    return budgets.map((budget) => {
      let window = this.windows.get(budget.key);
      if (!window || now >= window.start + this.windowMs) {
        window = { start: now, count: 0, refused: 0 };
        this.windows.set(budget.key, window);
        this.remember(budget, window);
      }
      return { budget, window, resetMs: window.start + this.windowMs - now };
    });
  }

  private remember(budget: Budget, window: MutableWindow): void {
    const entry = this.history.get(budget.key) ?? { budget, windows: [] };
    entry.windows.push(window);
    if (entry.windows.length > HISTORY_WINDOWS) entry.windows.shift();
    this.history.set(budget.key, entry);
  }
}

interface MutableWindow {
  start: number;
  count: number;
  refused: number;
}

interface WindowState {
  readonly budget: Budget;
  readonly window: MutableWindow;
  readonly resetMs: number;
}

function tightest(states: readonly WindowState[]): Omit<RateLimitVerdict, 'allowed'> {
  const t = states.reduce((a, b) => (b.budget.limit - b.window.count < a.budget.limit - a.window.count ? b : a));
  return { limit: t.budget.limit, remaining: Math.max(0, t.budget.limit - t.window.count), resetSeconds: Math.max(1, Math.ceil(t.resetMs / 1000)) };
}
