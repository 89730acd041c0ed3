import { MAX_RESERVERS, MemoryBudgetStore, type Budget, type BudgetClass, type Budgets, type BudgetStore } from './budget-store';

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

/**
 * How long the requests after a probe wait for its answer before another request probes: a window
 * nothing is known of (a process's first request, or the first after a reset) is found out by one
 * request, not by every request in flight at once, which would overspend a window that others
 * (the plan's process, another runner) already spent part of.
 */
export const PROBE_MS = 250;

/** How soon a request waiting for another's answer (a probe's, or the one before it at a window's end) looks again. */
export const ANSWER_RECHECK_MS = 20;

/** The last requests of a window, which a process alone on this machine sends one at a time. */
const LAST_FEW = 10;

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
  /** The last figure an answer gave per class, as the server counted it, and this process's requests in flight then. */
  private readonly lastFigure: Partial<Record<BudgetClass, { remaining: number; resetAtMs: number; inFlight: number }>> = {};
  /** This process's requests let through since its last figure, per class. */
  private readonly sentSinceFigure: Record<BudgetClass, number> = { request: 0, action: 0 };
  /** The classes this process probes in the shared store: their answer goes there, whatever it says. */
  private readonly probing = new Set<BudgetClass>();
  /** False once an answer came without figures: an API that reports no budget is not probed. */
  private reportsBudgets = true;
  private lastWaitForProbe = false;

  /** @param spreadMs upper bound of a random extra wait, so clients woken by one reset do not collide. */
  constructor(
    private readonly random: () => number,
    private readonly spreadMs = 250,
    private readonly store: BudgetStore = new MemoryBudgetStore(),
  ) {}

  /** Whether the last wait `acquire` asked for is for a probe's answer, not for a spent budget. */
  public get lastWaitIsProbe(): boolean {
    return this.lastWaitForProbe;
  }

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
    this.landed(budgetClass);
    const remaining = Number(headers.remaining);
    const resetSeconds = Number(headers.reset);
    if (headers.remaining === undefined || !Number.isFinite(remaining) || !Number.isFinite(resetSeconds)) {
      this.reportsBudgets = false;
      return;
    }
    // The figure was counted before the requests still in flight reached the server: they spend
    // from it too, or the budget is spent twice (the fixed-window 429s of parallel applies). So do
    // those of clients this process cannot see (another runner with the token): what the figure
    // fell by since the last answer, beyond this answer's own request, is taken as theirs, and as
    // many again as still on their way.
    const resetAtMs = nowMs + resetSeconds * 1000;
    const others = this.othersSince(budgetClass, remaining, resetAtMs);
    const counted: Budget = { remaining: remaining - this.inFlight[budgetClass], resetAtMs };
    const seen: Budget = { ...counted, remaining: counted.remaining - others };
    merge(this.own, budgetClass, seen, nowMs);
    this.ownSeenAtMs[budgetClass] = nowMs;
    if (seen.remaining > SHARED_BELOW && !this.probing.delete(budgetClass)) return;
    // Where another process of this machine reserved from this window, the fall is (at least partly) its requests, which the store counts already.
    this.store.update((budgets) => merge(budgets, budgetClass, isOthers(budgets[budgetClass]) ? counted : seen, nowMs));
  }

  /**
   * Reserves one request of this class and returns 0, or returns how long to wait before asking
   * again (the budget is spent until its reset). A reserved request is in flight until `observe`
   * (an answer) or `release` (none came).
   */
  public acquire(budgetClass: BudgetClass, nowMs: number): number {
    const plentiful = classesOf(budgetClass).every((cls) => this.plentiful(cls, nowMs));
    let probe = false;
    const delay = plentiful ? reserve(this.own, budgetClass, nowMs) : this.store.update((budgets) => {
      if (this.lastOfWindowInFlight(budgets, budgetClass, nowMs)) {
        probe = true;
        return ANSWER_RECHECK_MS;
      }
      const probes = this.reportsBudgets ? probesOf(budgets, budgetClass, nowMs) : [];
      const wait = reserve(budgets, budgetClass, nowMs, probes);
      probe = wait > 0 && waitsForProbe(budgets, budgetClass);
      probes.forEach((cls) => wait === 0 && this.probing.add(cls));
      if (wait === 0) classesOf(budgetClass).forEach((cls) => reservedBy(budgets[cls], process.pid));
      // Clients woken by one reset are spread; those waiting for an answer look again soon, and one at a time reserve.
      if (probe) return Math.min(wait, ANSWER_RECHECK_MS);
      return wait > 0 ? wait + Math.round(this.random() * this.spreadMs) : 0;
    });
    this.lastWaitForProbe = probe && delay > 0;
    if (delay === 0) {
      if (!plentiful) reserve(this.own, budgetClass, nowMs);
      for (const cls of classesOf(budgetClass)) {
        this.inFlight[cls] += 1;
        this.sentSinceFigure[cls] += 1;
      }
    }
    return delay;
  }

  /**
   * How many requests others sent since this process's last figure of the window: what the figure
   * fell by beyond every request of this process that can have reached the server since (those in
   * flight then, and those sent after).
   */
  private othersSince(budgetClass: BudgetClass, remaining: number, resetAtMs: number): number {
    const last = this.lastFigure[budgetClass];
    const sent = this.sentSinceFigure[budgetClass];
    this.lastFigure[budgetClass] = { remaining, resetAtMs, inFlight: this.inFlight[budgetClass] };
    this.sentSinceFigure[budgetClass] = 0;
    if (!last || Math.abs(resetAtMs - last.resetAtMs) >= SAME_WINDOW_MS) return 0;
    return Math.max(0, last.remaining - remaining - last.inFlight - sent);
  }

  /**
   * Whether the window is down to its last few requests, this process alone reserves from it here,
   * and has one in flight: clients elsewhere (another runner) spend from the same few unseen, so
   * one request at a time, each answer telling what is left.
   */
  private lastOfWindowInFlight(budgets: Budgets, budgetClass: BudgetClass, nowMs: number): boolean {
    return classesOf(budgetClass).some((cls) => {
      const budget = budgets[cls];
      return budget !== undefined && !budget.probe && nowMs < budget.resetAtMs && budget.remaining > 0 && budget.remaining <= LAST_FEW
        && !isOthers(budget) && this.inFlight[cls] > 0;
    });
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
    this.landed(budgetClass);
    // A probe that got no answer found nothing out: the next request probes at once.
    const probed = classesOf(budgetClass).filter((cls) => this.probing.delete(cls));
    if (probed.length) this.store.update((budgets) => probed.forEach((cls) => budgets[cls]?.probe && delete budgets[cls]));
  }

  /** A request let through is no longer in flight. */
  private landed(budgetClass: BudgetClass): void {
    for (const cls of classesOf(budgetClass)) this.inFlight[cls] = Math.max(0, this.inFlight[cls] - 1);
  }
}

/**
 * Takes an answer's figure into `budgets`. Within one window the lower remaining count wins, and
 * the earliest reset; a later window replaces an earlier one; an earlier window changes nothing.
 */
function merge(budgets: Budgets, budgetClass: BudgetClass, seen: Budget, nowMs: number): void {
  const known = budgets[budgetClass];
  if (!known || known.probe || nowMs >= known.resetAtMs || seen.resetAtMs > known.resetAtMs + SAME_WINDOW_MS) {
    budgets[budgetClass] = { ...seen };
  } else if (seen.resetAtMs >= known.resetAtMs - SAME_WINDOW_MS) {
    known.remaining = Math.min(known.remaining, seen.remaining);
    known.resetAtMs = Math.min(known.resetAtMs, seen.resetAtMs);
  }
}

/** The classes of a `budgetClass` request nothing is known of in `budgets` (never heard, or reset since): its request probes them. */
function probesOf(budgets: Budgets, budgetClass: BudgetClass, nowMs: number): BudgetClass[] {
  return classesOf(budgetClass).filter((cls) => !budgets[cls] || outOfDate(budgets[cls]!, nowMs));
}

/** A figure whose window has reset, or that resets further ahead than any answer gives: no knowledge. */
const outOfDate = (budget: Budget, nowMs: number): boolean => nowMs >= budget.resetAtMs || budget.resetAtMs - nowMs > LONGEST_RESET_MS;

/** Records that `pid` reserved from this window. */
function reservedBy(budget: Budget | undefined, pid: number): void {
  if (!budget || budget.by?.includes(pid) || (budget.by?.length ?? 0) >= MAX_RESERVERS) return;
  budget.by = [...(budget.by ?? []), pid];
}

/** Whether another process of this machine reserved from this window. */
const isOthers = (budget: Budget | undefined): boolean => budget?.by?.some((pid) => pid !== process.pid) ?? false;

/** Whether what holds a `budgetClass` request back is only another request's probe. */
const waitsForProbe = (budgets: Budgets, budgetClass: BudgetClass): boolean =>
  classesOf(budgetClass).every((cls) => budgets[cls] === undefined || budgets[cls]!.probe === true || budgets[cls]!.remaining > 0);

/**
 * Takes one request of this class from `budgets` and returns 0, or returns how long until the budget
 * that is spent resets. A request that probes `probes` holds each back for PROBE_MS, or until its answer.
 */
function reserve(budgets: Budgets, budgetClass: BudgetClass, nowMs: number, probes: readonly BudgetClass[] = []): number {
  let delay = 0;
  for (const cls of classesOf(budgetClass)) {
    const budget = budgets[cls];
    if (!budget) continue;
    if (outOfDate(budget, nowMs)) {
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
  for (const cls of probes) budgets[cls] = { remaining: 0, resetAtMs: nowMs + PROBE_MS, probe: true };
  return 0;
}
