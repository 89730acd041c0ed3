import { warningOf, type Diagnostic } from './diagnostics';

/*
 * What a plan's apply will spend of the token's budget, foretold at plan: a reviewer approving fifty
 * firewall changes learns before the apply that it waits for the API's limits, and about how long.
 * Terraform plans resources one by one and tells the provider nothing of the whole, so the count
 * grows with each planned change, and the warning comes once, with the change that crosses a limit.
 */

/** The limits an estimate is measured against, and whether the API's answers reported each. */
export interface TokenLimits {
  readonly requests: number;
  readonly actions: number;
  readonly reported?: { readonly requests: boolean; readonly actions: boolean };
  /** What the tightest budget had left at the plan's last answer, where the API reported it. */
  readonly left?: { readonly requests?: number; readonly actions?: number };
}

/** The API's limits per token as the spec documents them (section 8), until its answers report their own. */
export const TOKEN_LIMITS: TokenLimits = { requests: 120, actions: 10 };

/**
 * The limits as the API reports them (the smallest RateLimit-Limit of the plan's own answers: a read
 * reports the request budget, an action's answer the action budget), the spec's where no answer said;
 * `left`, the RateLimit-Remaining of the last answer: an account whose other tokens spend its budget
 * leaves the apply fewer requests than the token's own limit.
 */
export const limitsReported = (requests: number | undefined, actions: number | undefined, left: TokenLimits['left'] = {}): TokenLimits => ({
  requests: requests ?? TOKEN_LIMITS.requests,
  actions: actions ?? TOKEN_LIMITS.actions,
  reported: { requests: requests !== undefined, actions: actions !== undefined },
  left,
});

/** Requests an apply sends: all of them, and the power actions among them (which have a budget of their own). */
export interface ApplyCost {
  readonly requests: number;
  readonly actions: number;
}

/** The reads every apply shares once (the server list, the token's scopes, the rule sets). */
export const SHARED_READS: ApplyCost = { requests: 3, actions: 0 };

/** A firewall or IP settings change: its writes, and the read an apply of a saved plan makes first. */
export const settingsCost = (writes: number): ApplyCost => ({ requests: writes + 1, actions: 0 });

/** Power actions: a read of the server, then each action with about two polls of its operation. */
export const powerCost = (actions: number): ApplyCost => ({ requests: actions === 0 ? 0 : 1 + 3 * actions, actions });

export const addCosts = (a: ApplyCost, b: ApplyCost): ApplyCost => ({ requests: a.requests + b.requests, actions: a.actions + b.actions });

/** The budget `total` exceeds first (actions bind sooner), or undefined while both are within a minute's. */
export function bindingLimit(total: ApplyCost, limits: TokenLimits = TOKEN_LIMITS): { readonly what: 'requests' | 'power actions'; readonly count: number; readonly limit: number; readonly reported: boolean; readonly left?: number } | undefined {
  const exceeds = (count: number, limit: number, left: number | undefined) => count > limit || (left !== undefined && count > left);
  const binding = (what: 'requests' | 'power actions', count: number, limit: number, reported: boolean, left: number | undefined) =>
    ({ what, count, limit, reported, ...(left !== undefined && left < limit && { left }) });
  if (exceeds(total.actions, limits.actions, limits.left?.actions)) return binding('power actions', total.actions, limits.actions, limits.reported?.actions ?? false, limits.left?.actions);
  if (exceeds(total.requests, limits.requests, limits.left?.requests)) return binding('requests', total.requests, limits.requests, limits.reported?.requests ?? false, limits.left?.requests);
  return undefined;
}

/**
 * The warning of the change that makes the apply exceed a limit, e.g. `The apply will wait for the
 * API's rate limits: more than 120 requests with this token` and in the detail the count, the limit
 * and about how long. Undefined while within the limits.
 */
export function forecastWarning(total: ApplyCost, changes: number, limits: TokenLimits = TOKEN_LIMITS): Diagnostic | undefined {
  const binding = bindingLimit(total, limits);
  if (!binding) return undefined;
  const minutes = Math.max(1, Math.ceil((binding.count - (binding.left ?? 0)) / binding.limit) - (binding.left === undefined ? 1 : 0));
  const source = binding.reported ? 'as the API\'s answers to this plan report it' : 'the API\'s limit, section 8';
  const left = binding.left === undefined ? '' : ` and had ${binding.left} left at this plan's last answer (the account's budget, shared by its tokens, may be the tightest)`;
  return warningOf(
    `The apply will wait for the API's rate limits: more than ${binding.left ?? binding.limit} ${binding.what} with this token`,
    `This plan's first ${changes} changes already take about ${binding.count} ${binding.what}; the token may send ${binding.limit} a minute (${source})${left}, `
    // The window may reset seconds after the plan: the wait is at most this long, not about it.
    + `so the apply waits for its budget, up to about ${minutes} minute${minutes > 1 ? 's' : ''} (each wait ends when the API's window resets), longer when other runs use the token at once. `
    + 'Each wait is in the provider\'s log (TF_LOG_PROVIDER=INFO).',
  );
}

/** What a process's plan will spend at apply, counted change by change: the change that crosses a limit gets the one warning. */
export interface ApplyForecast {
  forecast(cost: ApplyCost): Diagnostic[];
}

/** What a client heard of the API's budgets (api/client.ts). */
export interface ReportedBudgets {
  reportedBudget(budget: 'request' | 'action'): { readonly limit?: number; readonly remaining?: number };
}

/**
 * The forecast of one plan process, measured against the tightest budgets `client` has heard the
 * API report; said once a process, by the change that crosses a limit.
 */
export function applyForecast(client: ReportedBudgets): ApplyForecast {
  let applyCost = { cost: SHARED_READS, changes: 0 };
  let said = false;
  return {
    forecast(cost) {
      if (said || (cost.requests === 0 && cost.actions === 0)) return [];
      applyCost = { cost: addCosts(applyCost.cost, cost), changes: applyCost.changes + 1 };
      const [requests, actions] = [client.reportedBudget('request'), client.reportedBudget('action')];
      const left = { requests: requests.remaining, actions: actions.remaining };
      const warning = forecastWarning(applyCost.cost, applyCost.changes, limitsReported(requests.limit, actions.limit, left));
      said = warning !== undefined;
      return warning ? [warning] : [];
    },
  };
}
