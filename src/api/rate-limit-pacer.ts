import { MemoryBudgetStore, type Budget, type BudgetClass, type Budgets, type BudgetStore } from './budget-store';

export type { BudgetClass };

export interface RateLimitHeaders {
  readonly remaining?: string;
  readonly reset?: string;
}

/** Answers whose reset differs by less than this belong to the same window (the header is whole seconds). */
const SAME_WINDOW_MS = 1_500;

/**
 * No answer puts a reset further ahead than this (section 8 counts per minute): a figure beyond it
 * in a shared store is not knowledge, and nobody waits for it.
 */
const LONGEST_RESET_MS = 2 * 60_000;

/**
 * Below this many requests left in a window, every reservation and figure goes through the store
 * that the processes of one machine share; above it, each process paces from what it knows, and
 * the store (a locked file: about a quarter of a provider's CPU when every request used it) is not touched.
 * It is larger than what the processes of parallel applies have in flight (10 each), so none of
 * their requests can spend the last of a window unseen.
 */
const SHARED_BELOW = 64;

/** How long a process's own figure stands for the fast path without a newer answer. */
const OWN_FIGURE_FRESH_MS = 1_000;

const classesOf = (budgetClass: BudgetClass): readonly BudgetClass[] => (budgetClass === 'action' ? ['request', 'action'] : ['request']);

/**
 * Waits for the window to reset instead of collecting a 429 once the budget is spent. The headers
 * on an action's answer report the action budget, those on any other answer the general one; an
 * action spends from both. Every client of one token shares the budget, and learns of the others
 * through the headers and, with a shared store, through each other's reservations.
 */
export class RateLimitPacer {
  /** Requests this pacer let through that have no answer yet, per class. */
  private readonly inFlight: Record<BudgetClass, number> = { request: 0, action: 0 };
  /** What this process knows by itself: while it shows a budget far from spent, the store is not consulted. */
  private readonly own: Budgets = {};
  /** When this process last heard its figure per class: an idle process's figure says nothing of what others spent since. */
  private readonly ownSeenAtMs: Partial<Record<BudgetClass, number>> = {};

  /** @param spreadMs upper bound of a random extra wait, so clients woken by one reset do not collide. */
  constructor(
    private readonly random: () => number,
    private readonly spreadMs = 250,
    private readonly store: BudgetStore = new MemoryBudgetStore(),
  ) {}

  /**
   * Which budget a wait of a `budgetClass` request is for, as this process knows it: the action
   * budget when that one is spent, else the general one.
   */
  public spentClass(budgetClass: BudgetClass, nowMs: number): BudgetClass {
    const action = this.own.action;
    return budgetClass === 'action' && action !== undefined && action.remaining <= 0 && nowMs < action.resetAtMs ? 'action' : 'request';
  }

  /**
   * Takes the server's figures. Within one window the lower remaining count wins: requests that
   * others reserved may not have reached the server yet. The reset is whole seconds, rounded up, so
   * each answer bounds the reset instant from above: the earliest bound of the window wins, and a
   * client waiting for it does not oversleep by up to a second per window. A later window replaces
   * an earlier one; an answer from an earlier window changes nothing.
   */
  public observe(budgetClass: BudgetClass, headers: RateLimitHeaders, nowMs: number): void {
    this.release(budgetClass);
    const remaining = Number(headers.remaining);
    const resetSeconds = Number(headers.reset);
    if (headers.remaining === undefined || !Number.isFinite(remaining) || !Number.isFinite(resetSeconds)) {
      return;
    }
    // The figure was counted before the requests still in flight reached the server: they spend
    // from it too, or the budget is spent twice (the fixed-window 429s of parallel applies).
    const seen: Budget = { remaining: remaining - this.inFlight[budgetClass], resetAtMs: nowMs + resetSeconds * 1000 };
    merge(this.own, budgetClass, seen, nowMs);
    this.ownSeenAtMs[budgetClass] = nowMs;
    if (seen.remaining <= SHARED_BELOW) this.store.update((budgets) => merge(budgets, budgetClass, seen, nowMs));
  }

  /**
   * Reserves one request of this class and returns 0, or returns how long to wait before asking
   * again (the budget is spent until its reset). A reserved request is in flight until `observe`
   * (an answer) or `release` (none came).
   */
  public acquire(budgetClass: BudgetClass, nowMs: number): number {
    const plentiful = classesOf(budgetClass).every((cls) => this.plentiful(cls, nowMs));
    const delay = plentiful ? reserve(this.own, budgetClass, nowMs) : this.store.update((budgets) => {
      const wait = reserve(budgets, budgetClass, nowMs);
      return wait > 0 ? wait + Math.round(this.random() * this.spreadMs) : 0;
    });
    if (delay === 0) {
      if (!plentiful) reserve(this.own, budgetClass, nowMs);
      for (const cls of classesOf(budgetClass)) this.inFlight[cls] += 1;
    }
    return delay;
  }

  /** Whether this process's own recent figure shows the class far from spent. */
  private plentiful(cls: BudgetClass, nowMs: number): boolean {
    const own = this.own[cls];
    const heardAt = this.ownSeenAtMs[cls];
    if (own === undefined || heardAt === undefined) return false;
    return own.remaining > SHARED_BELOW && nowMs < own.resetAtMs && nowMs - heardAt <= OWN_FIGURE_FRESH_MS;
  }

  /** A request let through ended without an answer (a lost connection, a timeout, a stop). */
  public release(budgetClass: BudgetClass): void {
    for (const cls of classesOf(budgetClass)) this.inFlight[cls] = Math.max(0, this.inFlight[cls] - 1);
  }
}

/**
 * Takes an answer's figure into `budgets`. Within one window the lower remaining count wins, and
 * the earliest reset; a later window replaces an earlier one; an earlier window changes nothing.
 */
function merge(budgets: Budgets, budgetClass: BudgetClass, seen: Budget, nowMs: number): void {
  const known = budgets[budgetClass];
  if (!known || nowMs >= known.resetAtMs || seen.resetAtMs > known.resetAtMs + SAME_WINDOW_MS) {
    budgets[budgetClass] = { ...seen };
  } else if (seen.resetAtMs >= known.resetAtMs - SAME_WINDOW_MS) {
    known.remaining = Math.min(known.remaining, seen.remaining);
    known.resetAtMs = Math.min(known.resetAtMs, seen.resetAtMs);
  }
}

/** Takes one request of this class from `budgets` and returns 0, or returns how long until the budget that is spent resets. */
function reserve(budgets: Budgets, budgetClass: BudgetClass, nowMs: number): number {
  let delay = 0;
  for (const cls of classesOf(budgetClass)) {
    const budget = budgets[cls];
    if (!budget) continue;
    if (nowMs >= budget.resetAtMs || budget.resetAtMs - nowMs > LONGEST_RESET_MS) {
      delete budgets[cls];
      continue;
    }
    if (budget.remaining <= 0) delay = Math.max(delay, budget.resetAtMs - nowMs);
  }
  if (delay > 0) return delay;
  for (const cls of classesOf(budgetClass)) {
    const budget = budgets[cls];
    if (budget) budget.remaining -= 1;
  }
  return 0;
}
