import type { Plan, ReconcileContext } from './context';
import { planFirewall } from './firewall';
import { planIpSettings } from './ip-settings';
import { planPowerState } from './power-state';
import { planReboot, type RebootTiming } from './reboot';
import type { ResourceDocument } from '../contract/resource-document';

/** Reads the live state of one resource and diffs it against the document. */
export function planResource(ctx: ReconcileContext, doc: ResourceDocument, timing: RebootTiming = {}): Promise<Plan> {
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
