/**
 * What an apply does with a value someone changed on the server after the plan read it: a saved
 * plan applied later by another job (the provider's `changed_since_plan`).
 */
export enum ChangedSincePlan {
  /** Set the planned value, and warn, naming the change (the default). */
  OVERWRITE = 'overwrite',
  /**
   * Write nothing to that server, leave the change in place, and fail the apply in the same words:
   * an emergency change made by hand is never undone by a green apply. Needs Bridge.PROVIDER.
   */
  FAIL = 'fail',
}

/** Why the bridges cannot fail on a change since the plan: they read only at apply. */
export const FAIL_SINCE_PLAN_NEEDS_PROVIDER = 'a bridge resource reads the server only at apply, so it cannot tell what changed since the plan; use the provider, or ChangedSincePlan.OVERWRITE';
