import { readFileSync } from 'node:fs';

/** Terraform commands that plan and never apply: a PlanResourceChange of theirs is never an apply's re-plan. */
const NEVER_APPLIES = new Set(['plan', 'import', 'refresh', 'validate', 'console']);

/**
 * What this provider process knows of the walk it serves. Terraform asks PlanResourceChange both in
 * the plan walk and in the apply's re-plan, and says nothing of which: an answer that only a plan
 * walk could take (a plan that a refusal said elsewhere stands in for) is given only where the
 * walk is proven to be one. Proofs: a refresh (ReadResource, which the apply walk never asks), a
 * terraform command that never applies, or a `terraform apply` without a saved plan whose run no
 * process planned in before this one (its plan walk: the apply walk's processes come after it).
 * That last proof rests on the run notes: each planning process writes its file when it first
 * plans, files of a run stay while its terraform runs, and a process whose own file could not be
 * written claims nothing (run-notes.ts, `mayFollowAPlan`).
 */
export interface WalkProof {
  /** A ReadResource came: this process refreshes, so it serves a plan (or an import). */
  refreshed(): void;
  /** Whether no PlanResourceChange of this process can be an apply's re-plan. */
  plansOnly(): boolean;
}

/**
 * `firstPlanOfRun`: whether no earlier process of this terraform run planned (run-notes.ts), false
 * where that cannot be told; asked only of a `terraform apply` without a saved plan.
 */
export function walkProof(invocation: TerraformInvocation | undefined, firstPlanOfRun: () => boolean = () => false): WalkProof {
  let refreshed = false;
  const command = invocation?.command;
  const planOfAnApply = () => command === 'apply' && invocation?.savedPlan === false && firstPlanOfRun();
  return {
    refreshed: () => {
      refreshed = true;
    },
    plansOnly: () => refreshed || (command !== undefined && NEVER_APPLIES.has(command)) || planOfAnApply(),
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
