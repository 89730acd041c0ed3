import type { BudgetClass } from './budget-store';

/** What a client (client.ts) waited for: milliseconds per cause. Named here, so this module imports nothing above it. */
export interface WaitsOf {
  readonly waited: ReadonlyArray<{ readonly cause: string; readonly ms: number }>;
}

/** Waits shorter than this together go to the log only. */
export const WAIT_WARNING_MS = 5_000;

/**
 * A limit of the API in plain words, from the budget a wait was for and the RateLimit-Limit figure
 * its answers reported; the spec's figures (section 8) name whose limit it is: the token's 120
 * requests or 10 power actions a minute, the account's 300 requests across its tokens.
 */
export function limitWords(budgetClass: BudgetClass, limit: number | undefined): string {
  if (budgetClass === 'action') return `the token's limit of ${limit ?? 10} power actions${limit === undefined || limit === 10 ? ' a minute' : ' per window'}`;
  if (limit === 300) return 'the account\'s limit of 300 requests a minute, shared by all its tokens';
  if (limit === undefined || limit === 120) return 'the token\'s limit of 120 requests a minute';
  return `the API's limit of ${limit} requests per window`;
}

/**
 * What one operation's requests waited for, when it adds up to more than a few seconds: the
 * summary a pipeline owner reads, e.g. `waited 35 s for the API's limits: 30 s for the token's limit
 * of 120 requests a minute, 5 s for retries after 429 rate_limited; ...`.
 */
export function waitSummary(clients: readonly WaitsOf[]): string | undefined {
  const byCause = new Map<string, number>();
  for (const { cause, ms } of clients.flatMap((c) => c.waited)) byCause.set(cause, (byCause.get(cause) ?? 0) + ms);
  const total = [...byCause.values()].reduce((sum, ms) => sum + ms, 0);
  if (total < WAIT_WARNING_MS) return undefined;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const causes = [...byCause].sort((x, y) => y[1] - x[1]).map(([cause, ms]) => `${seconds(ms)} for ${cause}`).join(', ');
  return `waited ${seconds(total)} for the API's limits: ${causes}; every run that uses the token shares them (a lower -parallelism, or fewer runs at once, waits less)`;
}
