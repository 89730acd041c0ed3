import {
  checkServerExists, checkWrite, creates, unlessItWaits, importIdProblem, leftInPlaceLine, refusalAt, knownOr, replacing, skeletonState,
  writesNothing, validateSpec, type ObjectValue, type ProviderResource,
} from './resource';
import { scopesForAction, type PowerAction, type ServerDetail } from '../../api/schemas';
import { POWER_DEFAULTS, type PowerStateSpec } from '../../contract/resource-document';
import { observedBy } from '../../reconcile/context';
import { canonicalJson } from '../../reconcile/keys';
import { runBudgetSeconds, SETTINGS_RUN_SECONDS } from '../../reconcile/plan-resource';
import { powerActionFor, planPowerState } from '../../reconcile/power-state';
import { actionRefusal } from '../../reconcile/preflight';
import { rebootServer } from '../../reconcile/reboot';
import { ReconcileError } from '../../reconcile/reconcile-error';
import { resourceLabel } from '../../reconcile/resource-label';
import { errorAt, isError, type Diagnostic } from '../diagnostics';
import { takeover, type PlanEffect } from './effects';
import { plannedRebootGeneration, REBOOT_GENERATION, REBOOT_GENERATION_ATTRIBUTE, rebootIntent, triggersChanged } from './reboot-generation';
import { appliedLife, LIFE_ID, LIFE_ID_ATTRIBUTE, newLifeId, plannedLife } from './resource-life';
import { UNKNOWN, type Value } from '../plugin/values';
import { powerCost } from '../rate-forecast';
import { EXPECT_TAKEOVER_ATTRIBUTE, schemaOf } from '../schema';
import type { ProviderSession } from '../session';

const orDefault = <T>(value: Value, fallback: T): T => (value === null ? fallback : (value as T));

function specOf(values: ObjectValue): PowerStateSpec {
  return {
    kind: 'power_state',
    serverId: String(values.server_id),
    desired: { state: values.state as PowerStateSpec['desired']['state'] },
    stopMethod: orDefault(values.stop_method, POWER_DEFAULTS.stopMethod),
    forceStopFallback: orDefault(values.force_stop_fallback, POWER_DEFAULTS.forceStopFallback),
    timeouts: {
      readySeconds: orDefault(values.ready_timeout_seconds, POWER_DEFAULTS.readySeconds),
      operationSeconds: orDefault(values.operation_timeout_seconds, POWER_DEFAULTS.operationSeconds),
    },
  };
}

/** `hosting_power_state`: a server kept running or stopped, rebooted once per change of its reboot triggers. */
export const powerStateResource: ProviderResource = {
  typeName: 'hosting_power_state',
  replacedBy: ['server_id'],
  identity: { attributes: [{ name: 'server_id', description: 'The server id (`vps_…` or `ded_…`).' }] },
  importIdExample: 'vps_web_2',
  changesServerList: true,
  schema: schemaOf('Keeps a server running or stopped, and reboots it once whenever reboot_triggers change. Import id: the server id (vps_… or ded_…).', [
    { name: 'id', type: 'string', computed: true, description: 'The server id.' },
    { name: 'server_id', type: 'string', required: true, description: 'A server id (vps_… or ded_…). Changing it replaces the resource.' },
    { name: 'state', type: 'string', required: true, description: '"running" or "stopped"; the refresh reads the actual power.' },
    { name: 'stop_method', type: 'string', optional: true, description: '"shutdown" (default, asks the operating system) or "power_off".' },
    { name: 'force_stop_fallback', type: 'bool', optional: true, description: 'Power off when a graceful shutdown fails (default false).' },
    { name: 'reboot_triggers', type: ['map', 'string'], optional: true, description: 'Values whose change reboots the server once; creating, importing or replacing the resource never reboots (the plan says so), nor does a change of anything else. A stopped server is not rebooted: one to run is started, a fresh boot. To reboot at once, invoke the hosting_server_reboot action.' },
    { name: 'hard_reboot', type: 'bool', optional: true, description: 'Reboot by reset (hardware) instead of reboot (operating system); default false.' },
    { name: 'ready_timeout_seconds', type: 'number', optional: true, description: 'Seconds to wait for a provisioning server or an operation in progress (default 600, at most 86400: a day).' },
    { name: 'operation_timeout_seconds', type: 'number', optional: true, description: 'Seconds one power operation may take (default 600, at most 86400: a day).' },
    EXPECT_TAKEOVER_ATTRIBUTE,
    REBOOT_GENERATION_ATTRIBUTE,
    LIFE_ID_ATTRIBUTE,
  ]),

  validate(config) {
    const spec = specOf({
      ...config,
      server_id: knownOr(config.server_id, 'vps_unknown_1'),
      state: knownOr(config.state, 'running'),
      stop_method: knownOr(config.stop_method, null),
      force_stop_fallback: knownOr(config.force_stop_fallback, null),
      ready_timeout_seconds: knownOr(config.ready_timeout_seconds, null),
      operation_timeout_seconds: knownOr(config.operation_timeout_seconds, null),
    });
    const attributes: Record<string, string> = {
      serverId: 'server_id',
      desired: 'state',
      stopMethod: 'stop_method',
      forceStopFallback: 'force_stop_fallback',
      readySeconds: 'ready_timeout_seconds',
      operationSeconds: 'operation_timeout_seconds',
    };
    const diagnostics = validateSpec(this.typeName, spec, (path) => attributes[String(path[0] === 'timeouts' ? path[1] : path[0])]);
    if (config.hard_reboot === true && config.reboot_triggers === null) {
      diagnostics.push(errorAt('hard_reboot', 'hard_reboot is true but reboot_triggers is not set, so there is never a reboot for it to change', 'set reboot_triggers or remove hard_reboot'));
    }
    return diagnostics;
  },

  /**
   * From GET /servers, one list read for every power state of the run. A list the API observed
   * before this resource's last action (its shared cache) is older than the state's power.
   */
  async read(session, state, priv) {
    const server = await session.listedServer(String(state.server_id));
    const older = observedBy(await session.listedAt(), priv.writtenAfter);
    return { state: server ? { ...state, id: server.id, state: older ? state.state : server.power } : null, private: priv };
  },

  async plan(session, prior, config, priv) {
    const planned: ObjectValue = { ...config, id: prior?.id ?? UNKNOWN };
    planned[REBOOT_GENERATION] = plannedRebootGeneration(prior, planned);
    planned[LIFE_ID] = plannedLife(prior);
    const requiresReplace = replacing(this, prior, config);
    const actions = await checkActions(session, prior, planned);
    const refusals = [...(await checkServerExists(session, prior, config)), ...actions.diagnostics];
    // A scope the read-only plan's token lacks is a warning: the plan still says all the rest.
    const refused = refusals.some(isError);
    const takesOver = !refused && creates(prior, requiresReplace);
    const forecast = !refused ? session.forecast(powerCost(await plannedActionCount(session, prior, planned))) : [];
    const created = takesOver ? [...(await powerTakeover(session, planned)), ...noRebootAtCreate(planned)] : [];
    const { observedServer: _, ...kept } = priv;
    return {
      planned,
      requiresReplace,
      // The apply right after this plan (in the apply walk, this process) starts from its read.
      private: actions.observed ? { ...kept, observedServer: actions.observed } : kept,
      diagnostics: [...refusals, ...forecast],
      effects: [...created, ...actions.effects],
    };
  },

  /**
   * Converges the power (a fresh read of the server first: an operation in flight or the actions on
   * offer are not in the list), then reboots once if the triggers of an applied instance changed.
   * The state says what the account got: after an action the API accepted, the planned values,
   * with the error if the apply failed after it (a timeout), so the next plan starts from there.
   */
  async apply(session, { prior, planned, private: planPrivate }) {
    const { observedServer, ...priv } = planPrivate;
    // A plan that changes neither power nor triggers writes nothing, whatever moved since: the next plan shows it.
    if (writesNothing(prior, planned, ['state', 'reboot_triggers'])) return { state: { ...planned, id: prior!.id }, private: priv };
    const spec = specOf(planned);
    const generation = typeof planned[REBOOT_GENERATION] === 'number' ? planned[REBOOT_GENERATION] : plannedRebootGeneration(prior, planned);
    const life = appliedLife(planned[LIFE_ID]);
    const state: ObjectValue = { ...planned, id: spec.serverId, [REBOOT_GENERATION]: generation, [LIFE_ID]: life };
    let sent = false;
    // The API's latest observation when it accepted the first action: every read the action started from is no newer.
    let writtenAfter: string | undefined;
    const accepted = () => {
      sent = true;
      writtenAfter ??= session.newestObservedAt();
    };
    const acted = () => (writtenAfter ? { ...priv, writtenAfter } : priv);
    const ctx = { ...session.context(runBudgetSeconds(spec), priv.writtenAfter), accepted };
    // A reboot reads the server before it acts: where one may follow, the converge reads it instead,
    // so a server stopped by hand since the plan is started (the fresh boot the triggers ask for) and named, not waited for.
    const rebootMayFollow = rebootsForTriggers(prior, planned, false);
    const observed = rebootMayFollow ? undefined : observedServer;
    let converged: ServerDetail;
    try {
      const plan = await planPowerState(ctx, spec, observed, shownPower(prior));
      ctx.log(plan.summary);
      converged = await plan.apply();
    } catch (error) {
      // The reboot, if any, was not reached: still to do.
      return { state: sent ? { ...state, ...(prior && unrebooted(prior)) } : prior, private: acted(), error };
    }
    if (triggersChanged(prior, planned) && !rebootsForTriggers(prior, planned, sent)) {
      // The plan said so: a start is the fresh boot the triggers ask for, and a stopped server is not booted.
      ctx.log(`${resourceLabel({ ...spec, kind: 'reboot', hard: false })}: ${spec.desired.state === 'running' ? 'started, a fresh boot' : 'to be stopped'}, so not rebooted for the changed reboot_triggers`);
    } else if (triggersChanged(prior, planned)) {
      const target = { label: resourceLabel({ ...spec, kind: 'reboot', hard: false }), kind: 'reboot' as const, serverId: spec.serverId, timeouts: spec.timeouts };
      // Keyed by what the reboot is for, the same in any process: a re-run after a crash replays it, another life never meets it.
      // The plan said the reboot is coming: done, it is a line of the log, not a warning.
      const rebootCtx = { ...ctx, intent: rebootIntent(life, generation as number, planned.reboot_triggers), done: ctx.log };
      sent = false;
      try {
        await rebootServer(rebootCtx, target, rebootAction(planned) === 'reset', undefined, earlierRebootAssumed(generation as number, planned.reboot_triggers), converged);
      } catch (error) {
        // Not sent: the old triggers stay in state, so the next plan shows the reboot still to do.
        return { state: sent ? state : { ...state, ...unrebooted(prior!) }, private: acted(), error };
      }
    }
    return { state, private: acted() };
  },

  /** A power state is not a setting to put back: removing the resource leaves the server as it is. */
  leftInPlace: async (_session, prior) => `${String(prior.server_id)}, which stays ${String(prior.state)}`,

  async destroy(session, prior, priv) {
    session.context(SETTINGS_RUN_SECONDS).log(leftInPlaceLine((await this.leftInPlace(session, prior, priv))!));
  },

  importState(id) {
    const problem = importIdProblem(id, 'any');
    if (problem) throw new ReconcileError(`cannot import as hosting_power_state: ${problem}`, 'use an id that GET /servers (or the hosting_servers data source) lists');
    // An import starts a life: no reboot of an earlier life of this server (at any address) can answer its reboots.
    return skeletonState(this, { id, server_id: id, [REBOOT_GENERATION]: 0, [LIFE_ID]: newLifeId() });
  },

  stateFromBridge(document, bridgeLife) {
    const spec = document as PowerStateSpec;
    // The bridge's document holds the defaults it ran with; a default is what an unset argument means here.
    const unlessDefault = <T>(value: T, fallback: T) => (value === fallback ? null : value);
    return {
      ...this.importState(spec.serverId),
      [LIFE_ID]: bridgeLife,
      state: spec.desired.state,
      stop_method: unlessDefault(spec.stopMethod, POWER_DEFAULTS.stopMethod),
      force_stop_fallback: unlessDefault(spec.forceStopFallback, POWER_DEFAULTS.forceStopFallback),
      ready_timeout_seconds: unlessDefault(spec.timeouts.readySeconds, POWER_DEFAULTS.readySeconds),
      operation_timeout_seconds: unlessDefault(spec.timeouts.operationSeconds, POWER_DEFAULTS.operationSeconds),
    };
  },
};

/**
 * What the apply takes a reboot an earlier run made under this change's key to be. The API keeps no
 * record of what a key was for beyond the key itself, and Terraform keeps the prior state when a
 * provider dies: a re-run after a crash and a rollback and re-deploy of the same triggers since
 * that crash look alike (docs/guides/design.md, *What each identity names*), and a second reboot is
 * the worse mistake.
 */
const earlierRebootAssumed = (generation: number, triggers: Value): string =>
  `. Assumed: that run applied this same change (generation ${generation} of this resource, reboot_triggers ${canonicalJson(triggers)}) and was stopped before Terraform recorded it. If the triggers went back and forth since then, the API cannot tell: set reboot_triggers to a new value to reboot`;

/** The power the plan showed: the prior state's, read by its refresh. */
const shownPower = (prior: ObjectValue | null): PowerStateSpec['desired']['state'] | undefined =>
  (prior?.state === 'running' || prior?.state === 'stopped' ? prior.state : undefined);

/** The prior's reboot triggers and generation: a reboot not sent is still to do. */
const unrebooted = (prior: ObjectValue): ObjectValue => ({
  reboot_triggers: prior.reboot_triggers,
  [REBOOT_GENERATION]: prior[REBOOT_GENERATION] ?? null,
});

/**
 * Whether the apply reboots for changed triggers: only a server that is to run and that this apply
 * did not start (a start is the fresh boot the triggers ask for); a server to stay stopped is not
 * booted. The plan says it from its read, the apply decides it after converging: one rule for both.
 */
const rebootsForTriggers = (prior: ObjectValue | null, planned: ObjectValue, starts: boolean): boolean =>
  triggersChanged(prior, planned) && planned.state === 'running' && !starts;

const rebootAction = (planned: ObjectValue): 'reboot' | 'reset' => (orDefault(planned.hard_reboot, POWER_DEFAULTS.hardReboot) ? 'reset' : 'reboot');

/** The power actions the apply would run from `power`: a stop or start towards `state`, then a reboot for changed triggers. */
function actionsFrom(power: Value | undefined, prior: ObjectValue | null, planned: ObjectValue): PowerAction[] {
  if ((power !== 'running' && power !== 'stopped') || (planned.state !== 'running' && planned.state !== 'stopped')) return [];
  const converge = powerActionFor(planned.state, power, orDefault(planned.stop_method, POWER_DEFAULTS.stopMethod));
  const reboot = rebootsForTriggers(prior, planned, converge === 'start') ? rebootAction(planned) : undefined;
  return [converge, reboot].filter((a): a is PowerAction => a !== undefined);
}

/** What a create changes of the server's power: the apply starts or stops it. */
async function powerTakeover(session: ProviderSession, planned: ObjectValue): Promise<PlanEffect[]> {
  if (typeof planned.server_id !== 'string' || typeof planned.state !== 'string' || session.expectsTakeover(planned)) return [];
  const power = (await session.listedServer(planned.server_id))?.power;
  if (power === undefined || power === planned.state) return [];
  const how = planned.state === 'running' ? 'starts it' : `stops it (${planned.stop_method === 'power_off' ? 'power_off' : 'a graceful shutdown'})`;
  return takeover('power', `the power of ${planned.server_id}`, [`state "${power}" -> "${planned.state}": the apply ${how}`]);
}

/**
 * A create (or a replacement's, or an import's plan) with reboot_triggers does not reboot: only a
 * change of triggers that were applied does. Said at plan, with how to reboot now, so a `-replace`
 * meant as a reboot is not mistaken for one.
 */
const noRebootAtCreate = (planned: ObjectValue): PlanEffect[] =>
  (planned.reboot_triggers === null || planned.reboot_triggers === undefined ? [] : [{ kind: 'create without reboot', serverId: String(planned.server_id) }]);

/** The server's power as the refresh read it into the state, or as the run's server list shows a server new to this resource. */
async function listedPower(session: ProviderSession, prior: ObjectValue | null, serverId: string): Promise<Value | undefined> {
  return prior && prior.server_id === serverId ? prior.state : (await session.listedServer(serverId))?.power;
}

/** How many power actions the apply of this plan sends, as the state or the run's server list shows the server (no read of its own). */
async function plannedActionCount(session: ProviderSession, prior: ObjectValue | null, planned: ObjectValue): Promise<number> {
  return typeof planned.server_id === 'string' ? actionsFrom(await listedPower(session, prior, planned.server_id), prior, planned).length : 0;
}

/**
 * What the apply would refuse, known now: a shared server, a missing scope, a server that cannot
 * take the action. When the state (or, for a new resource, the list) calls for an action, one fresh
 * read of the server decides, with the actions it offers; the apply right after starts from it.
 */
interface ActionCheck {
  readonly diagnostics: Diagnostic[];
  /** What the apply does for changed triggers: a reboot, or a start instead. */
  readonly effects: PlanEffect[];
  /** The server as the check read it, for the apply right after this plan. */
  readonly observed?: ServerDetail;
}

async function checkActions(session: ProviderSession, prior: ObjectValue | null, planned: ObjectValue): Promise<ActionCheck> {
  const none = { diagnostics: [], effects: [] };
  if (typeof planned.server_id !== 'string') return none;
  const serverId = planned.server_id;
  if (actionsFrom(await listedPower(session, prior, serverId), prior, planned).length === 0) return none;
  const server = await unlessItWaits(session, (seconds) => session.serverDetail(serverId, seconds));
  if (!server) return none;
  const actions = actionsFrom(server.power, prior, planned);
  if (actions.length === 0) return { ...none, observed: server };
  const label = resourceLabel(specOf({ ...planned, state: 'running' }));
  const refused = await checkWrite(session, serverId, label, [...new Set(actions.flatMap(scopesForAction))], actions.join(' and '));
  if (refused.some(isError)) return { ...none, diagnostics: refused };
  const refusals = actions.flatMap((action) => actionRefusal(label, server, action, session.token()) ?? []).map((r) => refusalAt('state', r));
  return { diagnostics: [...refused, ...refusals], effects: refusals.length ? [] : triggerEffects(prior, planned, actions), observed: server };
}

/** What the apply does for a change of reboot_triggers, said at plan so the reviewer sees it: a reboot, or the start that replaces it. */
function triggerEffects(prior: ObjectValue | null, planned: ObjectValue, actions: readonly PowerAction[]): PlanEffect[] {
  const serverId = String(planned.server_id);
  const reboot = actions.find((a): a is 'reboot' | 'reset' => a === 'reboot' || a === 'reset');
  if (reboot) return [{ kind: 'reboot', serverId, action: reboot }];
  return triggersChanged(prior, planned) && actions.includes('start') ? [{ kind: 'start instead of reboot', serverId }] : [];
}
