import { actionDiagnostics, SERVER_ID, TIMEOUTS, type ProviderAction } from './action';
import { rebootServer } from '../../reconcile/reboot';
import { resourceLabel } from '../../reconcile/resource-label';
import { checkServerIdArgument } from '../data-sources/data-source';
import { warningOf } from '../diagnostics';
import { schemaOf } from '../schema';

/** Statuses in which the API accepts no power action (spec 3.1). */
const INACTIVE: readonly string[] = ['suspended', 'failed', 'terminated'];

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
    const listed = typeof config.server_id === 'string' ? await session.listedServer(config.server_id) : undefined;
    // A server that takes no power action (suspended, failed, terminated) is refused whatever its power, as hosting_server_power is.
    const inactive = listed !== undefined && INACTIVE.includes(listed.status);
    const diagnostics = await actionDiagnostics(session, config, label, (power) => (power === 'running' || inactive ? (config.hard === true ? 'reset' : 'reboot') : undefined));
    const stopped = !inactive && listed && listed.power !== 'running' ? [warningOf(`${label}: the server is ${listed.power}, so the invocation will not reboot it`)] : [];
    return [...diagnostics, ...stopped];
  },
  invoke(ctx, config) {
    const serverId = String(config.server_id);
    const target = { label: resourceLabel({ kind: 'reboot', serverId, hard: config.hard === true, timeouts: TIMEOUTS }), kind: 'reboot' as const, serverId, timeouts: TIMEOUTS };
    return rebootServer(ctx, target, config.hard === true, 'the action was invoked');
  },
};
