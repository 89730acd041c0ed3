import { attributesOf, checkServerIdArgument, dataSourceSchema, readContext, stateOf, type ProviderDataSource } from './data-source';
import { POWER_ACTIONS } from '../../api/schemas';
import { observeServer } from '../../reconcile/observe';
import { ReconcileError } from '../../reconcile/reconcile-error';
import { OPERATION, SERVER_MEMBERS } from '../api-members';
import { closestNames, offered } from '../closest';
import { errorAt } from '../diagnostics';
import type { ObjectValue } from '../resources/resource';
import { oneOf, membersOf } from '../schema';
import type { ProviderSession } from '../session';

/** The one server a name selects from the run's list: none or several is an error naming what there is. */
async function idByName(session: ProviderSession, name: string): Promise<string> {
  const servers = (await session.serverList()).data;
  const matches = servers.filter((s) => s.name === name);
  if (matches.length === 1) return matches[0].id;
  const listed = (list: typeof servers) => list.map((s) => `${s.id} (${JSON.stringify(s.name)})`).join(', ') || 'none';
  throw matches.length === 0
    ? new ReconcileError(`hosting_server: no server of the account is named ${JSON.stringify(name)}`, nameHint(servers.length, closestNames(name, servers.map((s) => s.name))))
    : new ReconcileError(`hosting_server: ${matches.length} servers are named ${JSON.stringify(name)}: ${listed(matches)}`, 'select the server by id instead');
}

const nameHint = (total: number, candidates: readonly string[]) =>
  total === 0
    ? 'the account has no server'
    : `names are matched exactly; ${offered(total, 'servers', candidates.map((n) => JSON.stringify(n)))} (the hosting_servers data source lists them all)`;

/** `hosting_server`: one server by id or by exact name, with the actions on offer and the operation in flight. */
export const serverDataSource: ProviderDataSource = {
  typeName: 'hosting_server',
  schema: dataSourceSchema('One server, selected by `id` or by exact `name` (GET /servers/{id}; a name is looked up in the run\'s one GET /servers and must match exactly one server).', [
    { name: 'id', type: 'string', optional: true, computed: true, description: 'The server id; set exactly one of `id` and `name`.' },
    { name: 'name', type: 'string', optional: true, computed: true, description: 'The server\'s exact name; set exactly one of `id` and `name`.' },
    ...membersOf(SERVER_MEMBERS).filter(({ name }) => name !== 'id' && name !== 'name'),
    { name: 'actions', type: ['list', 'string'], computed: true, description: `The power actions this token can run on the server now, each ${oneOf(POWER_ACTIONS)}.` },
    { name: 'current_operation', type: OPERATION, computed: true, description: 'The operation in progress, or null.' },
  ]),
  validate(config: ObjectValue) {
    const set = ['id', 'name'].filter((a) => config[a] !== null);
    if (set.length !== 1) return [errorAt(undefined, `hosting_server needs exactly one of id and name (${set.length ? 'both are' : 'neither is'} set)`)];
    return checkServerIdArgument(config, 'id');
  },
  async read(session, config) {
    const id = typeof config.id === 'string' ? config.id : await idByName(session, String(config.name));
    const observed = await observeServer(readContext(session), id);
    return stateOf(session, this.typeName, config, observed, attributesOf(observed.data) as ObjectValue);
  },
};
