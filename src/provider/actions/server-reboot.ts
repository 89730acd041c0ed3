import { actionDiagnostics, SERVER_ID, TIMEOUTS, type ProviderAction } from './action';
import { rebootServer } from '../../reconcile/reboot';
import { resourceLabel } from '../../reconcile/resource-label';
import { checkServerIdArgument } from '../data-sources/data-source';
import { warningOf } from '../resources/resource';
import { schemaOf } from '../schema';

/** `hosting_server_reboot`: one reboot per invocation, with PowerState's rules. */
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
    return rebootServer(ctx, target, config.hard === true, 'the action was invoked');
  },
};
