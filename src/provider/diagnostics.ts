import { HostingApiError } from '../api/errors';
import { ReconcileError } from '../reconcile/reconcile-error';

/** `tfplugin6.Diagnostic` as this provider sends it. */
export interface Diagnostic {
  readonly severity: 1 | 2;
  readonly summary: string;
  readonly detail?: string;
  readonly attribute?: { readonly steps: ReadonlyArray<{ readonly attribute_name: string }> };
  /**
   * A refusal every resource of the run would repeat (a refused token, an API nothing answers
   * at, a scope the token lacks): said in full once, under this key (run/refusals.ts). Never sent.
   */
  readonly once?: string;
  /** The summary it is said with again, where it must be (an apply): one short line pointing at the first. Never sent. */
  readonly again?: string;
}

/** A failure of the whole run, not of one resource: said in full once (`once`), then as `again`. */
export class RunRefusal extends ReconcileError {
  constructor(summary: string, hint: string, public readonly again: string) {
    super(summary, hint);
  }
}

export const ERROR = 1;

/** A warning diagnostic (severity 2) for an outcome the person running Terraform should see. */
export const warningOf = (summary: string, detail?: string): Diagnostic => ({ severity: 2, summary, ...(detail !== undefined && { detail }) });

export function errorAt(attribute: string | undefined, summary: string, detail?: string): Diagnostic {
  return { severity: ERROR, summary, detail, attribute: attribute ? { steps: [{ attribute_name: attribute }] } : undefined };
}

/**
 * A failure as a diagnostic, with the API's status, code and request id and what to do, as the
 * handler prints it. The caller's scrub keeps the token out of every line.
 */
export function diagnosticOf(err: unknown, scrub: (text: string) => string): Diagnostic {
  if (err instanceof ReconcileError) {
    const [summary, ...detail] = err.describe();
    const once = err instanceof RunRefusal ? { once: `run: ${summary}`, again: scrub(err.again) } : {};
    return { severity: ERROR, summary: scrub(summary), detail: scrub(detail.map((l) => l.trim()).join('\n')), ...once };
  }
  if (err instanceof HostingApiError) return { severity: ERROR, summary: scrub(err.message) };
  return { severity: ERROR, summary: scrub(`unexpected failure: ${err instanceof Error ? err.message : String(err)}`) };
}

/**
 * A diagnostic of a failed apply. Terraform applies a saved plan once, so an apply of a plan that
 * another terraform run saved is told to plan again where a rerun of the same run is told to run
 * the apply again: the provider knows which (run notes: did an earlier process of the run plan).
 */
export function atApply(diagnostic: Diagnostic, planOfThisRun: boolean): Diagnostic {
  if (planOfThisRun || diagnostic.severity !== ERROR) return diagnostic;
  const replan = (text: string) => text.replace(/\brun the apply again( shortly)?/g, (_, shortly: string | undefined) => `plan again${shortly ?? ''}, then apply the new plan (this apply ran a saved plan, which Terraform applies once)`);
  return { ...diagnostic, summary: replan(diagnostic.summary), ...(diagnostic.detail !== undefined && { detail: replan(diagnostic.detail) }) };
}

/**
 * A diagnostic of `terraform plan`. Refusals share their text with the apply, which says "nothing
 * was changed" when it stopped before a write; at plan nothing is ever changed, so the words go.
 */
export function atPlan(diagnostic: Diagnostic): Diagnostic {
  const strip = (text: string) => text.replace(/[;,]? *nothing was changed(?=$|[.;\n])/g, '');
  return { ...diagnostic, summary: strip(diagnostic.summary), ...(diagnostic.detail !== undefined && { detail: strip(diagnostic.detail) }) };
}

