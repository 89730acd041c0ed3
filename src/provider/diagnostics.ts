import { orList } from './schema';
import { HostingApiError } from '../api/errors';
import { likelyName } from '../contract/patterns';
import { ReconcileError } from '../reconcile/reconcile-error';

/** `tfplugin6.Diagnostic` as this provider sends it. */
export interface Diagnostic {
  readonly severity: 1 | 2;
  readonly summary: string;
  readonly detail?: string;
  readonly attribute?: { readonly steps: ReadonlyArray<{ readonly attribute_name: string }> };
}

export const ERROR = 1;

export const isError = (diagnostic: Diagnostic): boolean => diagnostic.severity === ERROR;

/** A warning diagnostic (severity 2) for an outcome the person running Terraform should see. */
export const warningOf = (summary: string, detail?: string): Diagnostic => ({ severity: 2, summary, ...(detail !== undefined && { detail }) });

/** A warning an RPC collected (session.ts). */
type Warned = { readonly summary: string; readonly detail?: string };

/** An RPC's collected warnings, the token kept out of every line. */
export const warningsOf = (warnings: readonly Warned[], scrub: (text: string) => string): Diagnostic[] =>
  warnings.map((w) => warningOf(scrub(w.summary), w.detail === undefined ? undefined : scrub(w.detail)));

export function errorAt(attribute: string | undefined, summary: string, detail?: string): Diagnostic {
  return { severity: ERROR, summary, detail, attribute: attribute ? { steps: [{ attribute_name: attribute }] } : undefined };
}

/**
 * A setting whose value is none of its choices, with the one likely meant: `on_destroy must be
 * "retain" or "restore", not "restor": did you mean "restore"?`. `where` names it for the reader.
 */
export function choiceRefusal(attribute: string, value: unknown, choices: readonly string[], where = attribute): Diagnostic[] {
  if (value === null || value === undefined || typeof value === 'symbol' || choices.includes(value as string)) return [];
  const meant = typeof value === 'string' ? likelyName(value, choices) : undefined;
  return [errorAt(attribute, `${where} must be ${orList(choices.map((c) => JSON.stringify(c)))}, not ${JSON.stringify(value)}${meant ? `: did you mean ${JSON.stringify(meant)}?` : ''}`)];
}

/** A warning about the value of one attribute, which Terraform shows at that line of the configuration. */
export const warningAt = (attribute: string, summary: string, detail?: string): Diagnostic =>
  ({ ...errorAt(attribute, summary, detail), severity: 2 });

/**
 * A failure as a diagnostic, with the API's status, code and request id and what to do, as the
 * handler prints it. The caller's scrub keeps the token out of every line.
 */
export function diagnosticOf(err: unknown, scrub: (text: string) => string): Diagnostic {
  if (err instanceof ReconcileError) {
    const [summary, ...detail] = err.describe();
    return { severity: ERROR, summary: scrub(summary), detail: scrub(detail.map((l) => l.trim()).join('\n')) };
  }
  if (err instanceof HostingApiError) return { severity: ERROR, summary: scrub(err.message) };
  return { severity: ERROR, summary: scrub(`unexpected failure: ${err instanceof Error ? err.message : String(err)}`) };
}

/**
 * A diagnostic of a failed apply. Terraform applies a saved plan once, and says nothing to the
 * provider of whether this apply runs one, so "run the apply again" says what to do after one too.
 */
export function atApply(diagnostic: Diagnostic): Diagnostic {
  if (diagnostic.severity !== ERROR) return diagnostic;
  const replan = (text: string) => text.replace(/\brun the apply again( shortly)?/g, (_, shortly: string | undefined) => `run the apply again${shortly ?? ''} (after a saved plan: plan again, then apply the new plan)`);
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

