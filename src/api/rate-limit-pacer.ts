/**
 * Budgets the server reports per request class. Section 8 has a separate, tighter budget for power
 * actions; the headers on an action's answer report that one, the headers on any other answer
 * report the general one. An action spends from both.
 */
export type BudgetClass = 'request' | 'action';

interface Budget {
  remaining: number;
  resetAtMs: number;
}

export interface RateLimitHeaders {
  readonly remaining?: string;
  readonly reset?: string;
}

/**
 * Waits for the window to reset instead of collecting a 429 once the server says the budget is
 * spent. Every handler of an apply shares one token's budget and learns about the others only
 * through these headers, so the server's figures always replace what this process believed.
 */
export class RateLimitPacer {
  private readonly budgets = new Map<BudgetClass, Budget>();

  /** @param spreadMs upper bound of a random extra wait, so processes woken by one reset do not collide. */
  constructor(
    private readonly random: () => number,
    private readonly spreadMs = 250,
  ) {}

  public observe(budgetClass: BudgetClass, headers: RateLimitHeaders, nowMs: number): void {
    const remaining = Number(headers.remaining);
    const resetSeconds = Number(headers.reset);
    if (headers.remaining === undefined || !Number.isFinite(remaining) || !Number.isFinite(resetSeconds)) {
      return;
    }
    this.budgets.set(budgetClass, { remaining, resetAtMs: nowMs + resetSeconds * 1000 });
  }

  /** Counts a request about to be sent, so a burst from this process does not overshoot. */
  public spend(budgetClass: BudgetClass): void {
    for (const cls of budgetClass === 'action' ? (['request', 'action'] as const) : (['request'] as const)) {
      const budget = this.budgets.get(cls);
      if (budget) {
        budget.remaining -= 1;
      }
    }
  }

  /** How long to wait before a request of this class may be sent. */
  public delayMs(budgetClass: BudgetClass, nowMs: number): number {
    const classes = budgetClass === 'action' ? (['request', 'action'] as const) : (['request'] as const);
    let delay = 0;
    for (const cls of classes) {
      const budget = this.budgets.get(cls);
      if (!budget) {
        continue;
      }
      if (nowMs >= budget.resetAtMs) {
        this.budgets.delete(cls);
        continue;
      }
      if (budget.remaining <= 0) {
        delay = Math.max(delay, budget.resetAtMs - nowMs + Math.round(this.random() * this.spreadMs));
      }
    }
    return delay;
  }
}
