import { ReconcileError } from './reconcile-error';

/** One managed value that is not what the plan showed, each side as the plan prints it. */
export interface MovedValue {
  readonly name: string;
  /** What the plan showed (its read). */
  readonly shown: string;
  /** What the server holds now. */
  readonly actual: string;
  /** What the apply makes it. */
  readonly desired: string;
  /** Whether `actual` already is the desired value. */
  readonly reached: boolean;
}

/** What an apply plans from: its own read, or the one the caller made, and what a plan showed. */
export interface SincePlanOptions<T> {
  /** A fresh read the caller already made (the plan of this apply walk); without it the settings are read first. */
  readonly observed?: T;
  /**
   * What a plan made earlier showed, when the settings are read afresh here (a saved plan applied
   * later): what moved since is named in a warning, and set as planned all the same.
   */
  readonly shown?: T;
  /** A value that moved since `shown` fails the apply, written over by nothing (`changed_since_plan = "fail"`). */
  readonly refuseChangedSincePlan?: boolean;
}

/**
 * The options of an apply that has `planRead` (what its plan read moments before in this process,
 * if it did) and `shown` (what the plan showed). "fail" reads again before writing, so a change by
 * hand since the plan is never written over; otherwise the apply writes from the plan's read.
 */
export function sincePlanOptions<T>(refuseChangedSincePlan: boolean, planRead: T | undefined, shown: T | undefined): SincePlanOptions<T> {
  return refuseChangedSincePlan ? { shown: planRead ?? shown, refuseChangedSincePlan } : { observed: planRead, shown, refuseChangedSincePlan };
}

/**
 * A warning for values someone changed between the plan's read and this apply, e.g.
 * `firewall vps_web_1: changed since the plan: enabled true -> false (set back to true)`: the apply
 * still makes the plan true, and says what it overwrote. Undefined when nothing moved.
 */
export function sincePlanWarning(label: string, moved: readonly MovedValue[]): string | undefined {
  if (moved.length === 0) return undefined;
  const what = (m: MovedValue) => (m.reached ? 'now as planned' : m.desired === m.shown ? `set back to ${m.desired}` : `set to ${m.desired} as planned`);
  return `${label}: changed since the plan: ${moved.map((m) => `${m.name} ${m.shown} -> ${m.actual} (${what(m)})`).join(', ')}`;
}

/**
 * The refusal of an apply told not to overwrite changes made since the plan (`changed_since_plan =
 * "fail"`): the same words as the warning, and what was left alone (`wrote`: after the planned
 * writes, a value they did not touch moved). Undefined when nothing the apply would overwrite moved.
 */
export function sincePlanRefusal(label: string, moved: readonly MovedValue[], wrote = false): ReconcileError | undefined {
  const overwritten = moved.filter((m) => !m.reached);
  if (overwritten.length === 0) return undefined;
  const changes = overwritten.map((m) => `${m.name} ${m.shown} -> ${m.actual}`).join(', ');
  const left = wrote ? 'left as it is, after the planned changes were written' : 'left as it is, and nothing was written';
  return new ReconcileError(
    `${label}: changed since the plan: ${changes}; ${left} (changed_since_plan = "fail")`,
    'review the change: plan again to keep the planned values, or change the configuration to keep the new ones',
  );
}
