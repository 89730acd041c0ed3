import { checkServerIdArgument } from './data-sources/data-source';
import { errorAt, type Diagnostic } from './diagnostics';
import { scopesForAction, type PowerAction } from '../api/schemas';
import { POWER_DEFAULTS, type PowerStateSpec } from '../contract/resource-document';
import type { ReconcileContext } from '../reconcile/context';
import { runBudgetSeconds } from '../reconcile/plan-resource';
import { powerActionFor, planPowerState } from '../reconcile/power-state';
import { actionRefusal } from '../reconcile/preflight';
import { rebootServer } from '../reconcile/reboot';
import { resourceLabel } from '../reconcile/resource-label';
import { checkServerExists, checkWrite, refusalAt, warningOf, type ObjectValue } from './resources/resource';
import { schemaOf } from './schema';
import type { ProviderSession } from './session';

/*
 * Actions (Terraform 1.14+): `terraform apply -invoke=action.<type>.<name>`, or an `action_trigger`
 * of a resource's lifecycle. Imperative beside the declarative PowerState, with its rules: each
 * invocation acts at most once (its own idempotency keys), follows the operation to its final
 * status, reads the server before deciding after an unknown outcome, never reboots a server that is
 * not running, and is paced with every other action of the token.
 */

export interface ProviderAction {
  readonly typeName: string;
  readonly schema: ReturnType<typeof schemaOf>;
  validate(config: ObjectValue): Diagnostic[];
  /** What the plan can tell: the server, the token's scopes, whether the API would refuse. */
  plan(session: ProviderSession, config: ObjectValue): Promise<Diagnostic[]>;
  invoke(ctx: ReconcileContext, config: ObjectValue): Promise<void>;
}

const SERVER_ID = { name: 'server_id', type: 'string', required: true, description: 'The server to act on (`vps_…` or `ded_…`).' } as const;
const TIMEOUTS = { readySeconds: POWER_DEFAULTS.readySeconds, operationSeconds: POWER_DEFAULTS.operationSeconds };

/** The plan-time refusals of one power action on the server the configuration names. */
async function actionDiagnostics(
  session: ProviderSession, config: ObjectValue, label: string, action: (power: string) => PowerAction | undefined,
): Promise<Diagnostic[]> {
  if (typeof config.server_id !== 'string') return [];
  const missing = await checkServerExists(session, null, config);
  if (missing.length) return missing;
  const server = await session.serverDetail(config.server_id);
  const act = action(server.power);
  if (!act) return [];
  const refused = await checkWrite(session, config.server_id, label, scopesForAction(act), act, 'action');
  if (refused.length) return refused;
  const refusal = actionRefusal(label, server, act, 'action');
  return refusal ? [refusalAt(undefined, refusal)] : [];
}

export const serverRebootAction: ProviderAction = {
  typeName: 'hosting_server_reboot',
  schema: schemaOf('Reboots a server once per invocation (`reboot`, or `reset` when `hard`). A server that is not running is not rebooted: a warning says so.', [
    SERVER_ID,
    { name: 'hard', type: 'bool', optional: true, description: 'Reset (hardware, immediate) instead of reboot (asks the operating system); default false. Needs `servers:control`.' },
  ]),
  validate: (config) => checkServerIdArgument(config),
  async plan(session, config) {
    const label = `reboot ${String(config.server_id)}`;
    const diagnostics = await actionDiagnostics(session, config, label, (power) => (power === 'running' ? (config.hard === true ? 'reset' : 'reboot') : undefined));
    const listed = typeof config.server_id === 'string' ? await session.listedServer(config.server_id) : undefined;
    const stopped = listed && listed.power !== 'running' ? [warningOf(`${label}: the server is ${listed.power}, so the invocation will not reboot it`)] : [];
    return [...diagnostics, ...stopped];
  },
  invoke(ctx, config) {
    const serverId = String(config.server_id);
    const target = { label: resourceLabel({ kind: 'reboot', serverId, hard: config.hard === true, timeouts: TIMEOUTS }), kind: 'reboot' as const, serverId, timeouts: TIMEOUTS };
    return rebootServer(ctx, target, config.hard === true, undefined, 'the action was invoked');
  },
};

function powerSpec(config: ObjectValue): PowerStateSpec {
  return {
    kind: 'power_state',
    serverId: String(config.server_id),
    desired: { state: config.state as PowerStateSpec['desired']['state'] },
    stopMethod: config.hard === true ? 'power_off' : 'shutdown',
    forceStopFallback: config.fallback === true,
    timeouts: TIMEOUTS,
  };
}

export const serverPowerAction: ProviderAction = {
  typeName: 'hosting_server_power',
  schema: schemaOf('Starts or stops a server once per invocation; in the state already, it does nothing.', [
    SERVER_ID,
    { name: 'state', type: 'string', required: true, description: '`running` or `stopped`.' },
    { name: 'hard', type: 'bool', optional: true, description: 'Stop by `power_off` (hardware, immediate) instead of `shutdown` (asks the operating system); default false. Needs `servers:control`.' },
    { name: 'fallback', type: 'bool', optional: true, description: 'When a graceful shutdown fails, power off instead (as `force_stop_fallback` of `hosting_power_state`); default false.' },
  ]),
  validate(config) {
    const state = config.state;
    const wrongState = typeof state === 'string' && state !== 'running' && state !== 'stopped' ? [errorAt('state', `invalid state: "${state}" is neither "running" nor "stopped"`)] : [];
    return [...checkServerIdArgument(config), ...wrongState];
  },
  plan(session, config) {
    const spec = powerSpec(config);
    return actionDiagnostics(session, config, resourceLabel(spec), (power) => powerActionFor(spec.desired.state, power as PowerStateSpec['desired']['state'], spec.stopMethod));
  },
  async invoke(ctx, config) {
    const plan = await planPowerState(ctx, powerSpec(config));
    ctx.log(plan.summary);
    await plan.apply();
  },
};

export const ACTIONS: ReadonlyMap<string, ProviderAction> = new Map([serverRebootAction, serverPowerAction].map((a) => [a.typeName, a]));

/** An invocation's time budget, as PowerState's run has it. */
export const actionBudgetSeconds = (config: ObjectValue) => runBudgetSeconds(powerSpec(config));
