import { confirmWrite, explainApiError, keyFor, readFresh, type Plan, type ReconcileContext } from './context';
import { ReconcileError } from './reconcile-error';
import { resourceLabel } from './resource-label';
import { sincePlanRefusal, sincePlanWarning, type MovedValue, type SincePlanOptions } from './since-plan';
import { isHostingApiError } from '../api/errors';
import type { Firewall, FirewallChange, Ruleset } from '../api/schemas';
import { likelyName } from '../contract/patterns';
import type { FirewallSpec } from '../contract/resource-document';

export interface FirewallDesired {
  readonly enabled?: boolean;
  /** Resolved rule set ids. */
  readonly rulesets?: readonly number[];
}

export interface FirewallDiff {
  readonly change: FirewallChange;
  /** e.g. `enabled false -> true`, one entry per changed member. */
  readonly changes: readonly string[];
}

/** Rule set ids as a set: order and repeats are no difference. */
export const sortedUnique = (ids: readonly number[]): number[] => [...new Set(ids)].sort((a, b) => a - b);
const formatIds = (ids: readonly number[]) => `[${ids.join(', ')}]`;

/** Members the user did not set are left alone; rule sets compare as sets, so order alone is no change. */
export function diffFirewall(desired: FirewallDesired, actual: Firewall): FirewallDiff {
  const change: { enabled?: boolean; rulesets?: number[] } = {};
  const changes: string[] = [];
  if (desired.enabled !== undefined && desired.enabled !== actual.enabled) {
    change.enabled = desired.enabled;
    changes.push(`enabled ${actual.enabled} -> ${desired.enabled}`);
  }
  if (desired.rulesets !== undefined) {
    const want = sortedUnique(desired.rulesets);
    const have = sortedUnique(actual.rulesets);
    if (want.join(',') !== have.join(',')) {
      change.rulesets = want;
      changes.push(`rulesets ${formatIds(have)} -> ${formatIds(want)}`);
    }
  }
  return { change, changes };
}

/**
 * Rule sets given by id or by name, checked against what exists. Unknown ids, unknown names and
 * names shared by several rule sets are refused together, listing what exists.
 */
export function resolveRulesets(label: string, requested: ReadonlyArray<number | string>, available: readonly Ruleset[]): number[] {
  const problems: string[] = [];
  const ids = requested.map((entry) => {
    if (typeof entry === 'number') {
      if (!available.some((r) => r.id === entry)) problems.push(`rule set id ${entry} does not exist`);
      return entry;
    }
    const matches = available.filter((r) => r.name === entry);
    if (matches.length !== 1) {
      const likely = matches.length ? undefined : likelyName(entry, available.map((r) => r.name));
      problems.push(matches.length
        ? `rule set name ${JSON.stringify(entry)} is ambiguous (ids ${matches.map((r) => r.id).join(', ')})`
        : `rule set name ${JSON.stringify(entry)} does not exist${likely ? ` (did you mean ${JSON.stringify(likely)}?)` : ''}`);
    }
    return matches[0]?.id ?? -1;
  });
  if (problems.length) {
    const list = available.map((r) => `${r.id} ${JSON.stringify(r.name)}`).join(', ') || 'none';
    throw new ReconcileError(`${label}: ${problems.join('; ')}; nothing was changed`, `use one of the rule sets that exist: ${list}`);
  }
  return ids;
}

/**
 * Names that meant other rule sets when they were resolved (`resolved`, in the order of
 * `requested`) than they mean in `available`: a rule set replaced while the apply ran. Refused
 * naming each, so a write refused for an id the user never wrote is explained in their names.
 */
export function refuseRenamedRulesets(
  label: string, requested: ReadonlyArray<number | string>, resolved: readonly number[], available: readonly Ruleset[],
): void {
  const moved = requested.flatMap((entry, i) => {
    if (typeof entry === 'number' || available.some((r) => r.id === resolved[i] && r.name === entry)) return [];
    const now = available.filter((r) => r.name === entry).map((r) => r.id);
    const meaning = now.length ? `now means ${now.join(', ')}` : 'no rule set has it now';
    return [`rule set name ${JSON.stringify(entry)} meant id ${resolved[i]} when read, and ${meaning}`];
  });
  if (moved.length) {
    throw new ReconcileError(`${label}: ${moved.join('; ')}; the rule sets changed during the apply, and nothing was changed`, 'plan and apply again: names resolve from the rule sets as they are then');
  }
}

export interface FirewallPlan extends Plan {
  /** The firewall the plan was made from. */
  readonly actual: Firewall;
  /** What it makes of the managed members, rule set names resolved. */
  readonly desired: FirewallDesired;
  readonly diff: FirewallDiff;
}

/**
 * GET /firewall/rulesets, fresh: a stale list could map a name to an id that no longer carries it,
 * and the write's confirmation would not notice.
 */
export async function readRulesets(ctx: ReconcileContext, label: string): Promise<Ruleset[]> {
  const res = await readFresh(ctx, `${label}: rule sets`, () => ctx.client.listRulesets()).catch((err) => explainApiError(ctx, `${label}: reading rule sets`, err, ['network:read']));
  return res.data;
}

/** A fresh read of one firewall; a refusal (404 included) is explained. */
export async function readFirewall(ctx: ReconcileContext, label: string, serverId: string): Promise<Firewall> {
  const res = await readFresh(ctx, label, () => ctx.client.getFirewall(serverId)).catch((err) => explainApiError(ctx, `${label}: reading`, err, ['network:read']));
  return res.data;
}

/** Managed members whose value on the server (`actual`) is not the one the plan showed (`shown`). */
export function movedFirewall(desired: FirewallDesired, shown: Firewall, actual: Firewall): MovedValue[] {
  const moved: MovedValue[] = [];
  if (desired.enabled !== undefined && shown.enabled !== actual.enabled) {
    moved.push({ name: 'enabled', shown: String(shown.enabled), actual: String(actual.enabled), desired: String(desired.enabled), reached: actual.enabled === desired.enabled });
  }
  if (desired.rulesets !== undefined) {
    const [was, now, want] = [shown.rulesets, actual.rulesets, desired.rulesets].map((ids) => formatIds(sortedUnique(ids)));
    if (was !== now) moved.push({ name: 'rulesets', shown: was, actual: now, desired: want, reached: now === want });
  }
  return moved;
}

/**
 * Plans from `observed`, or from a fresh read. The apply writes every managed member that differs in
 * one PUT, and checks the whole answer: a member someone changed after the read is named and written
 * too (a second PUT), so the apply always ends with the planned values.
 */
export async function planFirewall(ctx: ReconcileContext, doc: FirewallSpec, options: SincePlanOptions<Firewall> = {}): Promise<FirewallPlan> {
  const label = resourceLabel(doc);
  const requested = doc.desired.rulesets;
  const listRulesets = () => readRulesets(ctx, label);
  // Names need the list to mean anything. Ids are checked by the API itself when written; the list
  // is read only to explain a refusal.
  const byName = requested?.some((r) => typeof r === 'string') ?? false;
  const rulesets = requested && byName ? resolveRulesets(label, requested, await listRulesets()) : (requested as readonly number[] | undefined);
  const read = () => readFirewall(ctx, label, doc.serverId);
  const desired: FirewallDesired = { enabled: doc.desired.enabled, rulesets };
  const actual = options.observed ?? await read();
  const diff = diffFirewall(desired, actual);
  const movedValues = options.shown && !options.observed ? movedFirewall(desired, options.shown, actual) : [];
  const refusal = options.refuseChangedSincePlan ? sincePlanRefusal(label, movedValues) : undefined;
  if (refusal) throw refusal;
  const moved = sincePlanWarning(label, movedValues);
  if (moved) ctx.warn(moved);
  if (diff.changes.length === 0) {
    return { inSync: true, summary: `${label}: in sync`, actual, desired, diff, apply: async () => undefined };
  }
  const explain = async (err: unknown): Promise<never> => {
    if (diff.change.rulesets && isHostingApiError(err, 'validation_failed', 'not_found')) {
      const available = await listRulesets();
      if (requested && rulesets && byName) refuseRenamedRulesets(label, requested, rulesets, available);
      resolveRulesets(label, diff.change.rulesets, available);
    }
    return explainApiError(ctx, `${label}: writing`, err, ['network:write']);
  };
  const write = (from: Firewall) => {
    const change = diffFirewall(desired, from).change;
    return confirmWrite(ctx, {
      label,
      write: (attempt) => ctx.client.updateFirewall(doc.serverId, change, keyFor(ctx, { kind: 'firewall', serverId: doc.serverId, step: 'firewall', desired: change, observed: from, attempt })),
      read,
      pending: (fw) => diffFirewall(change, fw).changes,
      explain,
    });
  };
  return {
    inSync: false,
    summary: `${label}: ${diff.changes.join(', ')}`,
    actual,
    desired,
    diff,
    apply: async () => {
      const after = await write(actual);
      // Members this PUT left alone, changed by someone since the read: set as planned too, once.
      const untouched: FirewallDesired = {
        enabled: diff.change.enabled === undefined ? desired.enabled : undefined,
        rulesets: diff.change.rulesets === undefined ? desired.rulesets : undefined,
      };
      const movedSince = movedFirewall(untouched, actual, after).filter((m) => !m.reached);
      const refused = options.refuseChangedSincePlan ? sincePlanRefusal(label, movedSince, true) : undefined;
      if (refused) throw refused;
      const since = sincePlanWarning(label, movedSince);
      if (since) {
        ctx.warn(since);
        await write(after);
      }
    },
  };
}
