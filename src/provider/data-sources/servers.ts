import { ACCESS_ROLES, SERVER_STATUSES, SERVER_TYPES, type Server } from '../../api/schemas';
import { errorAt, type Diagnostic } from '../diagnostics';
import { attributesOf, dataSourceSchema, stateOf, type ProviderDataSource } from './data-source';
import { SERVER_MEMBERS } from '../api-members';
import type { ObjectValue } from '../resources/resource';
import { listOf, oneOf } from '../schema';

/** Each filter attribute, and the member of a listed server it selects on. */
const FILTERS = [['type', 'type'], ['status', 'status'], ['name', 'name'], ['access_role', 'accessRole']] as const;

/** `hosting_servers`: every server of the account (GET /servers, read once per run), optionally filtered. */
export const serversDataSource: ProviderDataSource = {
  typeName: 'hosting_servers',
  schema: dataSourceSchema('Every server of the account, shared ones included (GET /servers, read once per run however many data sources and resources need it), optionally filtered.', [
    { name: 'type', type: 'string', optional: true, description: `Only servers of this type: ${oneOf(SERVER_TYPES)}.` },
    { name: 'status', type: 'string', optional: true, description: `Only servers in this status: ${oneOf(SERVER_STATUSES)}.` },
    { name: 'name', type: 'string', optional: true, description: 'Only servers with exactly this name.' },
    { name: 'access_role', type: 'string', optional: true, description: 'Only servers of this access role: `primary` (the account\'s own) or `secondary` (shared with it, read-only for it).' },
    { name: 'servers', type: listOf(SERVER_MEMBERS), computed: true, description: 'The matching servers, each with every member of the list endpoint.' },
    { name: 'ids', type: ['list', 'string'], computed: true, description: 'The ids of the matching servers, in the API\'s order.' },
  ]),
  validate: (config) => [checkFilter(config, 'type', SERVER_TYPES), checkFilter(config, 'status', SERVER_STATUSES), checkFilter(config, 'access_role', ACCESS_ROLES)].flat(),
  async read(session, config) {
    const observed = await session.serverList();
    const selects = (server: Server) => FILTERS.every(([attribute, member]) => config[attribute] === null || server[member] === config[attribute]);
    const matching = observed.data.filter(selects);
    return stateOf(session, this.typeName, config, observed, { servers: attributesOf(matching), ids: matching.map((s) => s.id) });
  },
};

/** A filter value the API never reports would silently select nothing: refused, naming the values it takes. */
function checkFilter(config: ObjectValue, name: string, allowed: readonly string[]): Diagnostic[] {
  const value = config[name];
  if (typeof value !== 'string' || allowed.includes(value)) return [];
  return [errorAt(name, `hosting_servers: ${name} ${JSON.stringify(value)} is not one the API reports, so it would match no server`, `use one of ${allowed.map((v) => JSON.stringify(v)).join(', ')} (values are lower case)`)];
}
