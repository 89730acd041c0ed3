import type { HostingApiError } from '../../api/errors';
import { refusesEveryRequest } from '../../api/first-answer-gate';
import { printableUrl } from '../../contract/patterns';
import { ReconcileError } from '../../reconcile/reconcile-error';
import { ERROR, RunRefusal, type Diagnostic } from '../diagnostics';

/**
 * A refusal of the whole run: a refused token, an API nothing answers at or one answering only
 * that it is unavailable (a scope the token lacks is one too, at plan). Its one home, from the API's answer to each walk's (issue 61):
 *
 * - the client meets it with one request, and every request after it fails with that same error
 *   without asking (api/first-answer-gate.ts);
 * - every resource reports it in the words the run met it first (`reported`), naming the API;
 * - the first resource of a process to meet it says it in full; the others (`sayOnce`):
 *   - where the walk only plans (walk.ts): say nothing, and keep their state (a refresh) or
 *     give the plan a read cannot improve (resources/plan-without-reads.ts), so the failed plan is
 *     one error, however many resources;
 *   - elsewhere (an apply, or a plan that may be the apply's re-plan): fail, in one short line that
 *     points at the first error. Never Terraform's proposed state, which the re-plan of a saved
 *     plan would find inconsistent with the plan ("a bug in the provider").
 */
export interface RunRefusals {
  /** Throws the run's refusal, if it met one, instead of asking again (the shared reads). */
  check(): void;
  /** What to report for `err`: the run's refusal as the run met it first, word for word; anything else as it is. */
  reported(err: unknown): unknown;
}

const isRunRefusal = (err: unknown): err is ReconcileError & { apiError: HostingApiError } =>
  err instanceof ReconcileError && refusesEveryRequest(err.apiError);

/** `baseUrlFrom` names where the address came from, for the hint of an API nothing answers at. */
export function createRunRefusals(tokenEnvVar: string, baseUrl: string, baseUrlFrom = 'HOSTING_API_URL'): RunRefusals {
  let first: (ReconcileError & { apiError: HostingApiError }) | undefined;
  const api = printableUrl(baseUrl);
  const told = (err: ReconcileError & { apiError: HostingApiError }): RunRefusal => {
    if (err.apiError.code === 'network_error') {
      const what = `the API at ${api} could not be reached`;
      return new RunRefusal(`${what}: ${err.apiError.detail}`, err.hint.replace('check HOSTING_API_URL', `check ${baseUrlFrom}`), `${what} (the first error says how)`);
    }
    if (err.apiError.apiDown) {
      const what = `the API at ${api} is unavailable`;
      return new RunRefusal(`${what}: ${err.apiError.detail}`, 'nothing was changed; run again once the API answers (its status page, or the provider\'s log with TF_LOG=INFO, shows each try)', `${what} (the first error says how)`);
    }
    const what = `the token in ${tokenEnvVar} was refused`;
    return new RunRefusal(tokenRefusedLine(tokenEnvVar, err.apiError, baseUrl), err.hint, `${what} (the first error says how)`);
  };
  return {
    check: () => {
      if (first) throw first;
    },
    reported: (err) => {
      if (!isRunRefusal(err)) return err;
      first ??= err;
      return told(first.apiError.code === err.apiError.code ? first : err);
    },
  };
}

/** e.g. `the token in HOSTING_API_TOKEN was refused by https://api.example.com/api/v1 (401 unauthorized, request id abc): the token is missing, invalid, expired or revoked` */
export function tokenRefusedLine(tokenEnvVar: string, err: HostingApiError, baseUrl: string): string {
  return `the token in ${tokenEnvVar} was refused by ${printableUrl(baseUrl)} (${err.status} ${err.code}${err.requestId ? `, request id ${err.requestId}` : ''}): ${err.detail}`;
}

/** What a process has said of the run's refusals: the first in full, then as `sayOnce` says. */
export interface RefusalsSaid {
  /**
   * `diagnostics` as this answer sends them, and whether a refusal said already was left out
   * (only where `plansOnly`: the answer then stands in with a plan a read cannot improve).
   */
  sayOnce(diagnostics: readonly Diagnostic[], plansOnly: boolean): { readonly diagnostics: Diagnostic[]; readonly withheld: boolean };
}

export function refusalsSaid(): RefusalsSaid {
  const said = new Set<string>();
  return {
    sayOnce(diagnostics, plansOnly) {
      let withheld = false;
      const sent = diagnostics.flatMap((d): Diagnostic[] => {
        if (d.once === undefined || !said.has(d.once)) {
          if (d.once !== undefined) said.add(d.once);
          return [d];
        }
        if (plansOnly) {
          withheld = true;
          return [];
        }
        return d.again === undefined || d.severity !== ERROR ? [d] : [{ severity: ERROR, summary: d.again, attribute: d.attribute, once: d.once }];
      });
      return { diagnostics: sent, withheld };
    },
  };
}
