import { actionDiagnostics, SERVER_ID, TIMEOUTS, type ProviderAction } from './action';
import type { PowerStateSpec } from '../../contract/resource-document';
import { powerActionFor, planPowerState } from '../../reconcile/power-state';
import { resourceLabel } from '../../reconcile/resource-label';
import { checkServerIdArgument } from '../data-sources/data-source';
import { errorAt } from '../diagnostics';
import type { ObjectValue } from '../resources/resource';
import { schemaOf } from '../schema';

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

/** `hosting_server_power`: one start or stop per invocation, with PowerState's rules. */
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
    const wrongState = typeof state === 'string' && state !== 'running' && state !== 'stopped' ? [errorAt('state', `invalid state: ${JSON.stringify(state)} is neither "running" nor "stopped"`)] : [];
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
