import { confirmWrite, explainApiError, keyFor, readFresh, type Plan, type ReconcileContext } from './context';
import { ReconcileError } from './reconcile-error';
import { resourceLabel } from './resource-label';
import { sincePlanRefusal, sincePlanWarning, type MovedValue, type SincePlanOptions } from './since-plan';
import type { IpSettingField, IpSettings, IpSettingsChange, Protection } from '../api/schemas';
import { quotedShort } from '../contract/patterns';
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
/** A value for a line a person reads: a long one cut short, saying its length. */
const quote = (v: string | null) => (v === null ? 'none' : quotedShort(v));

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

const FIELD_ORDER: readonly IpSettingField[] = ['rdns', 'description', 'protection'];

/** Whether two values of `field` are the same setting (host names ignore case and a final dot). */
function sameField(field: IpSettingField, a: string | Protection | null, b: string | Protection | null): boolean {
  if (field === 'rdns') return sameHostName(a as string | null, b as string | null);
  if (field === 'protection') return formatProtection(a as Protection | null) === formatProtection(b as Protection | null);
  return a === b;
}

const fieldText = (field: IpSettingField, value: string | Protection | null) => (field === 'protection' ? formatProtection(value as Protection | null) : quote(value as string | null));

/** Managed fields whose value on the server (`actual`) is not the one the plan showed (`shown`). */
export function movedIpSettings(desired: IpSettingsDesired, shown: IpSettings, actual: IpSettings): MovedValue[] {
  return FIELD_ORDER.filter((f) => desired[f] !== undefined && !sameField(f, shown[f], actual[f])).map((f) => ({
    name: f,
    shown: fieldText(f, shown[f]),
    actual: fieldText(f, actual[f]),
    desired: fieldText(f, desired[f]!),
    reached: sameField(f, desired[f]!, actual[f]),
  }));
}

export interface IpSettingsPlan extends Plan {
  /** The settings the plan was made from. */
  readonly actual: IpSettings;
  readonly changes: readonly IpFieldChange[];
  /** Writes field by field; `onApplied` hears of each confirmed one, so a refusal halfway loses nothing. */
  readonly apply: (onApplied?: (change: IpFieldChange) => void) => Promise<void>;
}

/**
 * Plans from `observed`, or from a fresh read. The apply writes each managed field that differs (one
 * PATCH each), and checks the last answer, which holds every field: a field someone changed after
 * the read is named and written too, so the apply always ends with the planned values.
 */
export async function planIpSettings(
  ctx: ReconcileContext, doc: IpSettingsSpec, options: SincePlanOptions<IpSettings> = {},
): Promise<IpSettingsPlan> {
  const label = resourceLabel(doc);
  const read = () => readIpSettings(ctx, label, doc.serverId, doc.ip);
  const actual = options.observed ?? await read();
  const changes = diffIpSettings(doc.desired, actual);
  const movedValues = options.shown && !options.observed ? movedIpSettings(doc.desired, options.shown, actual) : [];
  const refusal = options.refuseChangedSincePlan ? sincePlanRefusal(label, movedValues) : undefined;
  if (refusal) throw refusal;
  const moved = sincePlanWarning(label, movedValues);
  if (moved) ctx.warn(moved);
  if (changes.length === 0) {
    return { inSync: true, summary: `${label}: in sync`, actual, changes, apply: async () => undefined };
  }
  type OnApplied = (change: IpFieldChange) => void;
  const writeAll = async (from: IpSettings, fieldChanges: readonly IpFieldChange[], onApplied?: OnApplied): Promise<IpSettings> => {
    // All or nothing up front: a locked field is found before any field is written.
    const locked = lockedFields(fieldChanges, from);
    if (locked.length) {
      throw new ReconcileError(
        `${label}: ${locked.join(' and ')} ${locked.length > 1 ? 'are' : 'is'} not editable for this address; nothing was changed`,
        `remove ${locked.join(' and ')} from the configuration, or ask the hosting provider to make ${locked.length > 1 ? 'them' : 'it'} editable`,
      );
    }
    let last = from;
    for (const change of fieldChanges) {
      last = await confirmWrite(ctx, {
        label,
        what: change.field,
        write: (attempt) => ctx.client.updateIpSettings(doc.serverId, doc.ip, change.body, keyFor(ctx, { kind: 'ip_settings', serverId: `${doc.serverId}/${doc.ip}`, step: change.field, desired: change.body, observed: from[change.field], attempt })),
        read,
        pending: (settings) => diffIpSettings({ [change.field]: doc.desired[change.field] }, settings).map((c) => `${c.field} ${c.from}`),
        explain: (err) => explainApiError(ctx, `${label}: writing ${change.field}`, err, ['network:write']),
      });
      onApplied?.(change);
    }
    return last;
  };
  return {
    inSync: false,
    summary: `${label}: ${changes.map((c) => `${c.field} ${c.from} -> ${c.to}`).join(', ')}`,
    actual,
    changes,
    apply: async (onApplied) => {
      const after = await writeAll(actual, changes, onApplied);
      // Fields these writes left alone, changed by someone since the read: set as planned too, once.
      const untouched = Object.fromEntries(Object.entries(doc.desired).filter(([field]) => !changes.some((c) => c.field === field)));
      const movedSince = movedIpSettings(untouched, actual, after).filter((m) => !m.reached);
      const refused = options.refuseChangedSincePlan ? sincePlanRefusal(label, movedSince, true) : undefined;
      if (refused) throw refused;
      const since = sincePlanWarning(label, movedSince);
      if (since) {
        ctx.warn(since);
        await writeAll(after, diffIpSettings(untouched, after), onApplied);
      }
    },
  };
}

/** Fields to change that the API does not let this token edit. */
export function lockedFields(changes: readonly Pick<IpFieldChange, 'field'>[], actual: Pick<IpSettings, 'editable'>): IpSettingField[] {
  return changes.filter((c) => !actual.editable[c.field]).map((c) => c.field);
}
