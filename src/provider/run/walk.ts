import { readFileSync } from 'node:fs';
import { NO_NOTES, type RunNotes } from '../run-notes';

/** Terraform commands that plan and never apply: a PlanResourceChange of theirs is never an apply's re-plan. */
const NEVER_APPLIES = new Set(['plan', 'import', 'refresh', 'validate', 'console']);

/**
 * What this provider process knows of the walk it serves. Terraform asks PlanResourceChange both in
 * the plan walk and in the apply's re-plan, and says nothing of which: an answer that only a plan
 * walk could take (a plan that a refusal said elsewhere stands in for) is given only where the
 * call is proven to be no re-plan. Proofs:
 *
 * - for the process: a refresh (ReadResource, which the apply walk never asks), or a terraform
 *   command that never applies;
 * - for one change, where the plan walk and the apply walk are one terraform run (`terraform apply`
 *   without a saved plan, `terraform test`): no earlier process of the run planned that change
 *   without an error. The apply walk re-plans only changes its plan walk planned, and its processes
 *   start after the plan walk's have ended. The proof reads an absence, so what makes it true is
 *   kept: every planning process writes its notes file when it first plans and records each change
 *   it planned; its list counts only once it closed the file at its end, and a planner still
 *   running serves the walk under way; a file stays while its terraform runs; and a process whose
 *   own file could not be written claims nothing (run-notes.ts, `mayHavePlanned`).
 */
export interface WalkProof {
  /** A ReadResource came: this process refreshes, so it serves a plan (or an import). */
  refreshed(): void;
  /** Whether no PlanResourceChange of this process can be an apply's re-plan. */
  plansOnly(): boolean;
  /** Whether this PlanResourceChange of `change` (run-notes.ts, `changeOf`) cannot be an apply's re-plan. */
  plansAnew(change: string): boolean;
  /** This process planned `change` without an error: an apply walk of the run may plan it again. */
  planned(change: string): void;
}

/** What the walk's proof asks of the run notes (run-notes.ts). */
export type ChangesOfTheRun = Pick<RunNotes, 'plannedChange' | 'mayHavePlanned'>;

/** `changes`: what the run's processes planned; without them, no change is proven on its own. */
export function walkProof(invocation: TerraformInvocation | undefined, changes: ChangesOfTheRun = NO_NOTES): WalkProof {
  let refreshed = false;
  const command = invocation?.command;
  const plansOnly = () => refreshed || (command !== undefined && NEVER_APPLIES.has(command));
  // A saved plan was made by another run, whose notes this one does not see.
  const oneRun = command === 'test' || (command === 'apply' && invocation?.savedPlan === false);
  return {
    refreshed: () => {
      refreshed = true;
    },
    plansOnly,
    plansAnew: (change) => plansOnly() || (oneRun && !changes.mayHavePlanned(change)),
    planned: (change) => changes.plannedChange(change),
  };
}

/** What the terraform process that started this provider was asked to do. */
export interface TerraformInvocation {
  /** The subcommand: `plan`, `apply`, … */
  readonly command: string;
  /** For `apply`: whether it applies a saved plan; undefined where an option is not one known here. */
  readonly savedPlan?: boolean;
}

/**
 * The invocation of the terraform process `pid`, from its command line: the command is the first
 * argument that is no option (Terraform's global options, `-chdir=DIR` and the like, come before
 * it, each one argument). Undefined where the system does not tell it (outside Linux).
 */
export function terraformInvocation(pid: number, proc = '/proc'): TerraformInvocation | undefined {
  let args: string[];
  try {
    // Each argument ends with a NUL, the last one too.
    args = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').replace(/\0$/, '').split('\0').slice(1);
  } catch {
    return undefined;
  }
  const at = args.findIndex((arg) => !arg.startsWith('-'));
  if (at < 0) return undefined;
  const command = args[at];
  return command === 'apply' ? { command, savedPlan: appliesSavedPlan(args.slice(at + 1)) } : { command };
}

/** `terraform apply`'s options that take a value, given as `-name=value` or `-name value`. */
const APPLY_VALUE_OPTIONS = new Set(['backup', 'exclude', 'lock-timeout', 'parallelism', 'replace', 'state', 'state-out', 'target', 'var', 'var-file']);
/** Its options that take none (or only as `-name=value`). */
const APPLY_SWITCHES = new Set(['auto-approve', 'compact-warnings', 'destroy', 'input', 'json', 'lock', 'no-color', 'refresh', 'refresh-only']);

/**
 * Whether `terraform apply`'s arguments name a plan file: options end at the first argument that
 * is none (Go's flag rules), and that argument is the plan. An option not known here leaves it
 * untold, since it may take the next argument as its value.
 */
function appliesSavedPlan(args: readonly string[]): boolean | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') return i + 1 < args.length;
    if (!arg.startsWith('-') || arg === '-') return true;
    const [name, value] = arg.replace(/^--?/, '').split(/=(.*)/s);
    if (APPLY_VALUE_OPTIONS.has(name)) {
      if (value === undefined) i++;
    } else if (!APPLY_SWITCHES.has(name)) {
      return undefined;
    }
  }
  return false;
}
