import { confirmWrite, explainApiError, keyFor, readFresh, type Plan, type ReconcileContext } from './context';
import { ReconcileError } from './reconcile-error';
import { resourceLabel } from './resource-label';
import type { IpSettingField, IpSettings, IpSettingsChange, Protection } from '../api/schemas';
import type { IpSettingsSpec } from '../contract/resource-document';

export interface IpSettingsDesired {
  readonly rdns?: string;
  readonly description?: string;
  readonly protection?: Protection;
}

export interface IpFieldChange {
  readonly field: IpSettingField;
  readonly from: string;
  readonly to: string;
  /** The PATCH body: exactly one member (section 4.9). */
  readonly body: IpSettingsChange;
}

const normalizeHost = (name: string | null) => (name === null ? null : name.toLowerCase().replace(/\.$/, ''));

/** DNS names are case-insensitive and may end in a dot; neither difference is drift. */
export const sameHostName = (a: string | null, b: string | null) => normalizeHost(a) === normalizeHost(b);
const formatProtection = (p: Protection | null) => (p ? `${p.layer4}/${p.layer7}` : 'none');
const quote = (v: string | null) => (v === null ? 'none' : JSON.stringify(v));

/** One change per managed field that differs, in a fixed order; unset fields are not managed. */
export function diffIpSettings(desired: IpSettingsDesired, actual: IpSettings): IpFieldChange[] {
  const changes: IpFieldChange[] = [];
  if (desired.rdns !== undefined && !sameHostName(desired.rdns, actual.rdns)) {
    changes.push({ field: 'rdns', from: quote(actual.rdns), to: quote(desired.rdns), body: { rdns: desired.rdns } });
  }
  if (desired.description !== undefined && desired.description !== actual.description) {
    changes.push({ field: 'description', from: quote(actual.description), to: quote(desired.description), body: { description: desired.description } });
  }
  const p = desired.protection;
  if (p !== undefined && (actual.protection?.layer4 !== p.layer4 || actual.protection?.layer7 !== p.layer7)) {
    changes.push({ field: 'protection', from: formatProtection(actual.protection), to: formatProtection(p), body: { protection: { layer4: p.layer4, layer7: p.layer7 } } });
  }
  return changes;
}

/** A fresh read of one address's settings; a refusal (404 included) is explained. */
export async function readIpSettings(ctx: ReconcileContext, label: string, serverId: string, ip: string): Promise<IpSettings> {
  const res = await readFresh(ctx, label, () => ctx.client.getIpSettings(serverId, ip)).catch((err) => explainApiError(ctx, `${label}: reading`, err, ['network:read']));
  return res.data;
}

export interface IpSettingsPlan extends Plan {
  /** The settings the plan was made from. */
  readonly actual: IpSettings;
  readonly changes: readonly IpFieldChange[];
  /** Writes field by field; `onApplied` hears of each confirmed one, so a refusal halfway loses nothing. */
  readonly apply: (onApplied?: (change: IpFieldChange) => void) => Promise<void>;
}

/**
 * `observed` is a fresh read the caller already made (the provider's refresh in this run); without
 * it the address is read first.
 */
export async function planIpSettings(ctx: ReconcileContext, doc: IpSettingsSpec, observed?: IpSettings): Promise<IpSettingsPlan> {
  const label = resourceLabel(doc);
  const read = () => readIpSettings(ctx, label, doc.serverId, doc.ip);
  const actual = observed ?? (await read());
  const changes = diffIpSettings(doc.desired, actual);
  if (changes.length === 0) {
    return { inSync: true, summary: `${label}: in sync`, actual, changes, apply: async () => undefined };
  }
  return {
    inSync: false,
    summary: `${label}: ${changes.map((c) => `${c.field} ${c.from} -> ${c.to}`).join(', ')}`,
    actual,
    changes,
    apply: async (onApplied) => {
      // All or nothing up front: a locked field is found before any field is written.
      const locked = lockedFields(changes, actual);
      if (locked.length) {
        throw new ReconcileError(
          `${label}: ${locked.join(' and ')} ${locked.length > 1 ? 'are' : 'is'} not editable for this address; nothing was changed`,
          `remove ${locked.join(' and ')} from the configuration, or ask the hosting provider to make ${locked.length > 1 ? 'them' : 'it'} editable`,
        );
      }
      for (const change of changes) {
        await confirmWrite(ctx, {
          label,
          what: change.field,
          write: (attempt) => ctx.client.updateIpSettings(doc.serverId, doc.ip, change.body, keyFor(ctx, { kind: 'ip_settings', serverId: `${doc.serverId}/${doc.ip}`, step: change.field, desired: change.body, observed: actual[change.field], attempt })),
          read,
          pending: (settings) => diffIpSettings({ [change.field]: doc.desired[change.field] }, settings).map((c) => `${c.field} ${c.from}`),
          explain: (err) => explainApiError(ctx, `${label}: writing ${change.field}`, err, ['network:write']),
        });
        onApplied?.(change);
      }
    },
  };
}

/** Fields to change that the API does not let this token edit. */
export function lockedFields(changes: readonly Pick<IpFieldChange, 'field'>[], actual: Pick<IpSettings, 'editable'>): IpSettingField[] {
  return changes.filter((c) => !actual.editable[c.field]).map((c) => c.field);
}
