import {
  checkServerExists, checkWrite, creates, serverNotActive, unlessItWaits, leftInPlaceLine, importIdProblem, isGone, replacing, isKnown, knownOr,
  plannedValue, skeletonState, validateChangedSincePlan, validateOnDestroy, validateSpec, writesNothing, type ObjectValue, type ProviderResource,
} from './resource';
import type { Firewall } from '../../api/schemas';
import type { FirewallSpec } from '../../contract/resource-document';
import { diffFirewall, planFirewall, readFirewall, resolveRulesets, sortedUnique } from '../../reconcile/firewall';
import { SETTINGS_RUN_SECONDS } from '../../reconcile/plan-resource';
import { unknownRulesetIds } from '../../reconcile/preflight';
import { ReconcileError } from '../../reconcile/reconcile-error';
import { resourceLabel } from '../../reconcile/resource-label';
import { sincePlanOptions } from '../../reconcile/since-plan';
import { errorAt, isError, type Diagnostic } from '../diagnostics';
import { takeover, type PlanEffect } from './effects';
import { withRestoreValues, type PrivateState } from './private-state';
import { UNKNOWN, type Value } from '../plugin/values';
import { settingsCost } from '../rate-forecast';
import { CHANGED_SINCE_PLAN_ATTRIBUTE, EXPECT_TAKEOVER_ATTRIBUTE, ON_DESTROY_ATTRIBUTE, schemaOf } from '../schema';
import type { ProviderSession } from '../session';

function specOf(serverId: string, desired: FirewallSpec['desired']): FirewallSpec {
  return { kind: 'firewall', serverId, desired };
}

const label = (serverId: Value) => resourceLabel(specOf(String(serverId), {}));

/** The firewall a state holds, when it holds a read one (not after an import that was never read). */
function firewallIn(state: ObjectValue | null): Firewall | undefined {
  return state && typeof state.enabled === 'boolean' && Array.isArray(state.applied_rulesets) ? { enabled: state.enabled, rulesets: state.applied_rulesets as number[] } : undefined;
}

/**
 * `rulesets` holds the configuration's ids when rule sets are also given by name (Terraform keeps
 * a configured value as written); otherwise it is the actual set, managed or read.
 */
const rulesetsOf = (state: ObjectValue, actual: number[]): Value => (state.ruleset_names === null ? actual : state.rulesets);

/** What the plan may change on the server; the other attributes change only how the provider works. */
const SERVER_FACING = ['enabled', 'applied_rulesets'];

/** The rule sets the configuration asks for, ids then names, as the API document lists them. */
const requested = (config: ObjectValue): Array<number | string> =>
  [...((config.rulesets as number[] | null) ?? []), ...((config.ruleset_names as string[] | null) ?? [])];

/** `hosting_server_firewall`: the firewall of one VPS. Only the attributes set are managed. */
export const serverFirewallResource: ProviderResource = {
  typeName: 'hosting_server_firewall',
  replacedBy: ['server_id'],
  identity: { attributes: [{ name: 'server_id', description: 'The VPS id (`vps_…`).' }] },
  importIdExample: 'vps_web_1',
  schema: schemaOf('The firewall of one VPS: on or off, and which rule sets apply. Only the attributes set are managed. Import id: the VPS id (vps_…).', [
    { name: 'id', type: 'string', computed: true, description: 'The server id.' },
    { name: 'server_id', type: 'string', required: true, description: 'A VPS id (vps_…). Changing it replaces the resource.' },
    { name: 'enabled', type: 'bool', optional: true, computed: true, description: 'Whether the firewall is on.' },
    { name: 'rulesets', type: ['set', 'number'], optional: true, computed: true, description: 'Ids of rule sets to apply, with those of ruleset_names; read from the server when neither is set.' },
    { name: 'ruleset_names', type: ['list', 'string'], optional: true, description: 'Names of rule sets to apply, resolved to ids.' },
    { name: 'applied_rulesets', type: ['set', 'number'], computed: true, description: 'Ids of the rule sets that apply on the server: those of rulesets and ruleset_names together when managed.' },
    ON_DESTROY_ATTRIBUTE,
    EXPECT_TAKEOVER_ATTRIBUTE,
    CHANGED_SINCE_PLAN_ATTRIBUTE,
  ]),

  validate(config) {
    const ids = Array.isArray(config.rulesets) ? config.rulesets.filter(isKnown) : [];
    const names = Array.isArray(config.ruleset_names) ? config.ruleset_names.filter(isKnown) : [];
    const managesRulesets = config.rulesets !== null || config.ruleset_names !== null;
    const spec = specOf(knownOr(config.server_id, 'vps_unknown_1') as string, {
      enabled: config.enabled === null ? undefined : (knownOr(config.enabled, true) as boolean),
      rulesets: managesRulesets ? [...(ids as number[]), ...(names as string[])] : undefined,
    });
    return [
      ...validateSpec(this.typeName, spec, ([first, second, index]) =>
        first === 'serverId' ? 'server_id'
          : second === 'rulesets' ? (typeof index === 'number' && index >= ids.length ? 'ruleset_names' : 'rulesets')
            : second === 'enabled' ? 'enabled' : undefined),
      ...validateOnDestroy(config),
      ...validateChangedSincePlan(config),
    ];
  },

  async read(session, state, priv) {
    const serverId = String(state.server_id);
    const ctx = session.context(SETTINGS_RUN_SECONDS, priv.writtenAfter);
    try {
      const data = await readFirewall(ctx, label(serverId), serverId);
      const actual = sortedUnique(data.rulesets);
      const fresh: ObjectValue = { ...state, id: serverId, enabled: data.enabled, rulesets: rulesetsOf(state, actual), applied_rulesets: actual };
      return { state: fresh, private: await withRulesetIds(session, priv, state.ruleset_names) };
    } catch (err) {
      if (isGone(err)) return { state: null, private: priv };
      throw err;
    }
  },

  async plan(session, prior, config, priv) {
    const { desired: resolved, refusals: nameRefusals } = await desiredOrRefusal(session, config);
    const requiresReplace = replacing(this, prior, config);
    // A replacement's firewall is another server's: what the old one showed says nothing of it.
    const shown = requiresReplace.length ? null : prior;
    // Neither attribute set: the rule sets are not managed, and the plan shows those in effect.
    const unmanaged = config.rulesets === null && config.ruleset_names === null;
    const planned: ObjectValue = {
      id: shown?.id ?? UNKNOWN,
      server_id: config.server_id,
      enabled: plannedValue(config, shown, 'enabled'),
      rulesets: unmanaged ? (shown?.applied_rulesets ?? UNKNOWN) : config.rulesets,
      ruleset_names: config.ruleset_names,
      applied_rulesets: resolved === undefined ? (shown?.applied_rulesets ?? UNKNOWN) : resolved,
      on_destroy: config.on_destroy,
      expect_takeover: config.expect_takeover,
      changed_since_plan: config.changed_since_plan,
    };
    // Names resolve again in the apply walk's plan, a new process, where a rule set made again since
    // has another id: both plans take the ids the refresh recorded; names it did not record (a
    // create, a change of names) are known after apply.
    const byName = config.ruleset_names !== null && resolved !== undefined && isKnown(resolved);
    if (byName) planned.applied_rulesets = recordedIds(shown, config, priv) ?? UNKNOWN;
    const writes = requiresReplace.length > 0 || !writesNothing(prior, planned, SERVER_FACING);
    // Every refusal of the plan at once: a mistyped server id and a mistyped rule set name need one plan, not two.
    const refusals = [
      ...(await checkServerExists(session, prior, config)),
      ...nameRefusals,
      ...(writes ? await checkRulesetIds(session, config) : []),
      ...(writes ? await checkWrite(session, config.server_id, label(config.server_id), ['network:write'], 'changing its firewall') : []),
    ];
    // A scope the read-only plan's token lacks is a warning: the plan still says all the rest.
    const refused = refusals.some(isError);
    const notActive = writes && !refused ? await serverNotActive(session, config.server_id, label(config.server_id), 'a firewall change') : [];
    const forecast = writes && !refused ? session.forecast(settingsCost(1)) : [];
    // A reviewed takeover (expect_takeover) is not read at plan: the apply reads it, once.
    const takesOver = !refused && creates(prior, requiresReplace) && !session.expectsTakeover(config);
    const taken = takesOver && typeof config.server_id === 'string' ? await takenOver(session, config.server_id) : undefined;
    const { observedFirewall: _, ...kept } = priv;
    return {
      planned,
      requiresReplace,
      private: taken ? { ...kept, observedFirewall: taken } : kept,
      diagnostics: [...refusals, ...forecast],
      effects: [...notActive, ...(taken ? takeoverOf({ ...planned, applied_rulesets: resolved ?? null }, taken) : [])],
    };
  },

  /**
   * Writes what the plan changes, from a fresh read: the refresh behind the plan may be hours old
   * (a saved plan), and a managed value that moved since is named, set as planned (or, with
   * "fail", left and refused). A create writes from the read of its plan in this apply walk
   * (Terraform plans each change again right before applying it). A plan that changes nothing on
   * the server writes nothing, whatever moved since: the next plan shows it. The PUT's answer is
   * checked whole; members the configuration leaves unset keep their planned values in the state.
   */
  async apply(session, { prior, planned, config, private: priv }) {
    const serverId = String(planned.server_id);
    const { observedFirewall, ...base } = priv;
    if (writesNothing(prior, planned, SERVER_FACING)) return { state: { ...planned, id: serverId }, private: base };
    const ctx = session.context(SETTINGS_RUN_SECONDS, base.writtenAfter);
    const managesRulesets = config.rulesets !== null || config.ruleset_names !== null;
    const spec = specOf(serverId, {
      enabled: typeof config.enabled === 'boolean' ? config.enabled : undefined,
      // Names are resolved now, from a fresh list, and checked against the ids the plan showed.
      rulesets: managesRulesets ? requested(config) : undefined,
    });
    const planRead = observedFirewall && { enabled: observedFirewall.enabled, rulesets: [...observedFirewall.rulesets] };
    const plan = await planFirewall(ctx, spec, sincePlanOptions(session.refusesChangedSincePlan(config), planRead, firewallIn(prior)));
    ctx.log(plan.summary);
    const named = namedIds(config, plan.desired);
    // A name that resolves to other ids than the plan showed: that plan can no longer be made true.
    if (named && isKnown(planned.applied_rulesets) && !sameIds(plan.desired.rulesets!, planned.applied_rulesets as number[])) {
      return { state: prior, private: base, error: renamed(serverId, planned.applied_rulesets as number[], plan.desired.rulesets!) };
    }
    const applied = managesRulesets ? sortedUnique(plan.desired.rulesets!) : knownOr(planned.applied_rulesets, plan.actual.rulesets) as number[];
    const enabled = knownOr(planned.enabled, plan.actual.enabled);
    const state: ObjectValue = { ...planned, id: serverId, enabled, rulesets: rulesetsOf(planned, applied), applied_rulesets: applied };
    const writtenAfter = session.newestObservedAt();
    try {
      await plan.apply();
    } catch (error) {
      return { state: prior, private: base, error };
    }
    const written = Object.keys(plan.diff.change) as Array<keyof Firewall>;
    const after = written.length ? { ...base, writtenAfter } : base;
    const kept = named ? { ...after, rulesetIds: named } : withoutRulesetIds(after);
    return { state, private: withRestoreValues(kept, Object.fromEntries(written.map((name) => [name, plan.actual[name]]))) };
  },

  async leftInPlace(session, prior, priv) {
    const restore = restoreOf(prior, priv);
    const where = `the firewall of ${String(prior.server_id)}`;
    if (!restore) return `${where} (enabled ${String(prior.enabled)}, rule sets ${JSON.stringify(prior.applied_rulesets)})`;
    const gone = await goneRulesets(session, restore.rulesets);
    return gone.length ? `${where} without rule set${gone.length > 1 ? 's' : ''} ${gone.join(', ')}, which it had before this resource and the account no longer has` : undefined;
  },

  async destroy(session, prior, priv) {
    const serverId = String(prior.server_id);
    const ctx = session.context(SETTINGS_RUN_SECONDS, priv.writtenAfter);
    const left = await this.leftInPlace(session, prior, priv);
    if (left) ctx.log(leftInPlaceLine(left));
    const restore = restoreOf(prior, priv);
    if (!restore) return;
    // A rule set deleted since cannot be applied again: the others are, as the plan said.
    const gone = await goneRulesets(session, restore.rulesets);
    const restored = specOf(serverId, { enabled: restore.enabled, rulesets: restore.rulesets?.filter((id) => !gone.includes(id)) });
    const plan = await planFirewall(ctx, restored);
    ctx.log(`${plan.summary} (restoring the values before this resource)`);
    await plan.apply();
  },

  importState(id) {
    const problem = importIdProblem(id, 'vps');
    if (problem) throw new ReconcileError(`cannot import as hosting_server_firewall: ${problem}`, 'use a VPS id that GET /servers (or the hosting_servers data source) lists, e.g. terraform import <address> vps_web_1');
    return skeletonState(this, { id, server_id: id });
  },

  stateFromBridge(document) {
    const { serverId, desired } = document as FirewallSpec;
    // The document lists ids and names together, as the construct's rulesets and rulesetNames.
    const ids = desired.rulesets?.filter((r): r is number => typeof r === 'number');
    const names = desired.rulesets?.filter((r): r is string => typeof r === 'string');
    return {
      ...this.importState(serverId),
      enabled: desired.enabled ?? null,
      rulesets: ids && (ids.length || !names?.length) ? ids : null,
      ruleset_names: names?.length ? names : null,
    };
  },
};

/** The values a removal puts back: those before this resource's first writes, with on_destroy = "restore". */
const restoreOf = (prior: ObjectValue, priv: PrivateState): Partial<Firewall> | undefined =>
  (prior.on_destroy === 'restore' ? (priv.restore as Partial<Firewall> | undefined) : undefined);

/** Which of `ids` the account's rule sets no longer include (one list per process). */
async function goneRulesets(session: ProviderSession, ids: readonly number[] | undefined): Promise<number[]> {
  return ids?.length ? unknownRulesetIds(ids, await session.rulesets()) : [];
}

/** `priv` with the ids the account's rule sets give `names` now, for the next plans; without them when there are none. */
async function withRulesetIds(session: ProviderSession, priv: PrivateState, names: Value): Promise<PrivateState> {
  if (!Array.isArray(names) || names.length === 0) return withoutRulesetIds(priv);
  const available = await session.rulesets();
  const ids = (names as string[]).flatMap((name) => {
    const matches = available.filter((r) => r.name === name);
    return matches.length === 1 ? [[name, matches[0].id] as const] : [];
  });
  return { ...priv, rulesetIds: Object.fromEntries(ids) };
}

const withoutRulesetIds = (priv: PrivateState): PrivateState => {
  const { rulesetIds: _, ...rest } = priv;
  return rest;
};

/** The planned ids from what the refresh recorded, when the configuration keeps the names it recorded them for. */
function recordedIds(shown: ObjectValue | null, config: ObjectValue, priv: PrivateState): number[] | undefined {
  const names = config.ruleset_names as string[];
  const sameNames = shown !== null && JSON.stringify(shown.ruleset_names) === JSON.stringify(names);
  const recorded = sameNames && names.every((n) => priv.rulesetIds?.[n] !== undefined);
  if (!recorded) return undefined;
  return sortedUnique([...((config.rulesets as number[] | null) ?? []), ...names.map((n) => priv.rulesetIds![n])]);
}

/** Each configured name with the id the apply resolved it to (`desired.rulesets` lists ids, then names). */
function namedIds(config: ObjectValue, desired: { readonly rulesets?: readonly number[] }): Record<string, number> | undefined {
  const names = config.ruleset_names as string[] | null;
  if (!names?.length || !desired.rulesets) return undefined;
  const offset = ((config.rulesets as number[] | null) ?? []).length;
  return Object.fromEntries(names.map((name, i) => [name, desired.rulesets![offset + i]]));
}

const sameIds = (a: readonly number[], b: readonly number[]): boolean => sortedUnique(a).join(',') === sortedUnique(b).join(',');

function renamed(serverId: string, planned: readonly number[], now: readonly number[]): ReconcileError {
  return new ReconcileError(
    `${label(serverId)}: ruleset_names resolve to rule sets [${sortedUnique(now).join(', ')}] now, where the plan showed [${planned.join(', ')}] (a rule set was deleted or renamed since); nothing was written`,
    'plan again: the new plan shows the rule sets the names give now',
  );
}

/** The desired rule sets, or the refusal of their names (unknown, ambiguous) on `ruleset_names`, with them known only after apply. */
async function desiredOrRefusal(session: ProviderSession, config: ObjectValue): Promise<{ desired: Value | undefined; refusals: Diagnostic[] }> {
  try {
    return { desired: await desiredRulesets(session, config), refusals: [] };
  } catch (err) {
    // A refusal of the names themselves; a failed read of the list is the plan's failure as before.
    if (!(err instanceof ReconcileError) || err.apiError) throw err;
    return { desired: UNKNOWN, refusals: [errorAt('ruleset_names', err.summary, err.hint)] };
  }
}

/** Rule set ids the configuration asks for, names resolved; undefined when not managed, UNKNOWN when not known yet. */
async function desiredRulesets(session: ProviderSession, config: ObjectValue): Promise<Value | undefined> {
  if (config.rulesets === null && config.ruleset_names === null) return undefined;
  if (!isKnown(config.rulesets) || !isKnown(config.ruleset_names)) return UNKNOWN;
  const ids = (config.rulesets as number[] | null) ?? [];
  const names = (config.ruleset_names as string[] | null) ?? [];
  if (names.length === 0) return sortedUnique(ids);
  const serverLabel = label(config.server_id);
  return sortedUnique([...ids, ...resolveRulesets(serverLabel, names, await session.rulesets())]);
}

/**
 * The firewall a create takes over, read at plan to say what the apply changes there; the apply
 * right after this plan writes from it. A failed read fails the plan, which cannot say what the
 * apply changes; in the apply walk a read that would wait is left to the apply, after this plan.
 */
const takenOver = (session: ProviderSession, serverId: string): Promise<Firewall | undefined> =>
  unlessItWaits(session, (seconds) => readFirewall(session.context(seconds), label(serverId), serverId));

/** What a create changes of the firewall it takes over. */
function takeoverOf(planned: ObjectValue, actual: Firewall): PlanEffect[] {
  const serverId = String(planned.server_id);
  const desired = {
    enabled: typeof planned.enabled === 'boolean' ? planned.enabled : undefined,
    rulesets: Array.isArray(planned.applied_rulesets) && isKnown(planned.applied_rulesets) ? (planned.applied_rulesets as number[]) : undefined,
  };
  return takeover('firewall', `the firewall of ${serverId}`, diffFirewall(desired, actual).changes);
}

/** Rule set ids the account does not offer, from the run's one list of rule sets (names are checked as they resolve). */
async function checkRulesetIds(session: ProviderSession, config: ObjectValue): Promise<Diagnostic[]> {
  if (!Array.isArray(config.rulesets) || !isKnown(config.rulesets) || config.rulesets.length === 0) return [];
  const available = await session.rulesets();
  const unknown = unknownRulesetIds(config.rulesets as number[], available);
  if (unknown.length === 0) return [];
  const shown = available.slice(0, 10).map((r) => `${r.id} (${JSON.stringify(r.name)})`).join(', ');
  const more = available.length > 10 ? ` and ${available.length - 10} more (the hosting_firewall_rulesets data source lists them)` : '';
  const listed = available.length ? `the account's rule sets are ${shown}${more}` : 'the account has no rule set';
  const account = session.accountName();
  return [errorAt('rulesets', `${label(config.server_id)}: rule set ${unknown.join(', ')} does not exist on ${account}; nothing was changed`, `${listed}; use their ids, or their names in ruleset_names`)];
}
