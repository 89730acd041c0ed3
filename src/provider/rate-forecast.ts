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
}

/** The API's limits per token as the spec documents them (section 8), until its answers report their own. */
export const TOKEN_LIMITS: TokenLimits = { requests: 120, actions: 10 };

/**
 * The limits as the API reports them (RateLimit-Limit of the plan's own answers: a read reports the
 * request budget, an action's answer the action budget), the spec's where no answer said.
 */
export const limitsReported = (requests: number | undefined, actions: number | undefined): TokenLimits => ({
  requests: requests ?? TOKEN_LIMITS.requests,
  actions: actions ?? TOKEN_LIMITS.actions,
  reported: { requests: requests !== undefined, actions: actions !== undefined },
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
export function bindingLimit(total: ApplyCost, limits: TokenLimits = TOKEN_LIMITS): { readonly what: 'requests' | 'power actions'; readonly count: number; readonly limit: number; readonly reported: boolean } | undefined {
  if (total.actions > limits.actions) return { what: 'power actions', count: total.actions, limit: limits.actions, reported: limits.reported?.actions ?? false };
  if (total.requests > limits.requests) return { what: 'requests', count: total.requests, limit: limits.requests, reported: limits.reported?.requests ?? false };
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
  const minutes = Math.max(1, Math.ceil(binding.count / binding.limit) - 1);
  const source = binding.reported ? 'as the API\'s answers to this plan report it' : 'the API\'s limit, section 8';
  return warningOf(
    `The apply will wait for the API's rate limits: more than ${binding.limit} ${binding.what} with this token`,
    `This plan's first ${changes} changes already take about ${binding.count} ${binding.what}; the token may send ${binding.limit} a minute (${source}), `
    + `so the apply waits about ${minutes} minute${minutes > 1 ? 's' : ''} or more for its budget, longer when other runs use the token at once. `
    + 'Each wait is in the provider\'s log (TF_LOG_PROVIDER=INFO).',
  );
}

/** What a process's plan will spend at apply, counted change by change: the change that crosses a limit gets the one warning. */
export interface ApplyForecast {
  forecast(cost: ApplyCost): Diagnostic[];
}

/**
 * The forecast of one plan process, measured against the limits `client` has heard the API report;
 * said once a terraform run (`firstTime`): the apply of a `terraform apply` plans again, and its
 * plan said it already.
 */
export function applyForecast(client: { reportedLimit(budget: 'request' | 'action'): number | undefined }, firstTime: (words: string) => boolean): ApplyForecast {
  let applyCost = { cost: SHARED_READS, changes: 0 };
  let said = false;
  return {
    forecast(cost) {
      if (said || (cost.requests === 0 && cost.actions === 0)) return [];
      applyCost = { cost: addCosts(applyCost.cost, cost), changes: applyCost.changes + 1 };
      const warning = forecastWarning(applyCost.cost, applyCost.changes, limitsReported(client.reportedLimit('request'), client.reportedLimit('action')));
      said = warning !== undefined;
      return warning && firstTime('the apply will wait') ? [warning] : [];
    },
  };
}
