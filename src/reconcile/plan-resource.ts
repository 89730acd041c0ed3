import type { Plan, ReconcileContext } from './context';
import { planFirewall } from './firewall';
import { planIpSettings } from './ip-settings';
import { planPowerState } from './power-state';
import { planReboot, type RebootTiming } from './reboot';
import type { ResourceSpec } from '../contract/resource-document';

/** Reads the live state of one resource and diffs it against the document. */
export function planResource(ctx: ReconcileContext, doc: ResourceSpec, timing: RebootTiming = {}): Promise<Plan> {
  switch (doc.kind) {
    case 'firewall':
      return planFirewall(ctx, doc);
    case 'ip_settings':
      return planIpSettings(ctx, doc);
    case 'power_state':
      return planPowerState(ctx, doc);
    case 'reboot':
      return planReboot(ctx, doc, timing);
  }
}

/** Settings writes: room for rate-limit waits at the API's per-minute budgets, and retries. */
export const SETTINGS_RUN_SECONDS = 600;

/**
 * The one overall deadline of a resource run, in seconds: every retry, pacing wait, operation poll
 * and readiness wait of the run ends by then. Power runs get their readiness wait, two operations
 * (an attempt after an unknown outcome, or the forced fallback) and two minutes for the requests.
 */
export function runBudgetSeconds(doc: ResourceSpec): number {
  switch (doc.kind) {
    case 'power_state':
    case 'reboot':
      return doc.timeouts.readySeconds + 2 * doc.timeouts.operationSeconds + 120;
    default:
      return SETTINGS_RUN_SECONDS;
  }
}
