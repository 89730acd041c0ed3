import { readFileSync } from 'node:fs';

/** Terraform commands that plan and never apply: a PlanResourceChange of theirs is never an apply's re-plan. */
const NEVER_APPLIES = new Set(['plan', 'import', 'refresh', 'validate', 'console']);

/**
 * What this provider process knows of the walk it serves. Terraform asks PlanResourceChange both in
 * the plan walk and in the apply's re-plan, and says nothing of which: an answer that only a plan
 * walk could take (a plan that a refusal said elsewhere stands in for) is given only where the
 * walk is proven to be one. Proofs: a refresh (ReadResource, which the apply walk never asks), or
 * a terraform command that never applies.
 */
export interface WalkProof {
  /** A ReadResource came: this process refreshes, so it serves a plan (or an import). */
  refreshed(): void;
  /** Whether no PlanResourceChange of this process can be an apply's re-plan. */
  plansOnly(): boolean;
}

export function walkProof(command: string | undefined): WalkProof {
  let refreshed = false;
  return {
    refreshed: () => {
      refreshed = true;
    },
    plansOnly: () => refreshed || (command !== undefined && NEVER_APPLIES.has(command)),
  };
}

/**
 * The subcommand of the terraform process `pid` (`plan`, `apply`, …), from its command line: the
 * first argument that is no option (Terraform's global options, `-chdir=DIR` and the like, come
 * before it, each one argument). Undefined where the system does not tell it (outside Linux).
 */
export function terraformCommand(pid: number, proc = '/proc'): string | undefined {
  try {
    const args = readFileSync(`${proc}/${pid}/cmdline`, 'utf8').split('\0').slice(1);
    return args.find((arg) => !arg.startsWith('-'));
  } catch {
    return undefined;
  }
}
