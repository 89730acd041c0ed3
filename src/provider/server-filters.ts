import { errorAt, type Diagnostic } from './diagnostics';
import { ACCESS_ROLES, SERVER_STATUSES, SERVER_TYPES, type Server } from '../api/schemas';
import type { ObjectValue } from './resources/resource';
import { oneOf, type AttributeSpec } from './schema';

/*
 * The filters of a server list, the same wherever a list is filtered: the `hosting_servers` data
 * source and the list resources of `terraform query`.
 */

/** Each filter attribute, and the member of a listed server it selects on. */
const FILTERS = [['type', 'type'], ['status', 'status'], ['name', 'name'], ['access_role', 'accessRole']] as const;

export const SERVER_FILTER_ATTRIBUTES: readonly AttributeSpec[] = [
  { name: 'type', type: 'string', optional: true, description: `Only servers of this type: ${oneOf(SERVER_TYPES)}.` },
  { name: 'status', type: 'string', optional: true, description: `Only servers in this status: ${oneOf(SERVER_STATUSES)}.` },
  { name: 'name', type: 'string', optional: true, description: 'Only servers with exactly this name.' },
  { name: 'access_role', type: 'string', optional: true, description: 'Only servers of this access role: `primary` (the account\'s own) or `secondary` (shared with it, read-only for it).' },
];

/** Whether a listed server passes every filter that is set. */
export const selectsServer = (filters: ObjectValue) => (server: Server): boolean =>
  FILTERS.every(([attribute, member]) => filters[attribute] === null || filters[attribute] === undefined || server[member] === filters[attribute]);

/** A filter value the API never reports would silently select nothing: refused, naming the values it takes. */
export function filterProblems(typeName: string, filters: ObjectValue): Diagnostic[] {
  return ([['type', SERVER_TYPES], ['status', SERVER_STATUSES], ['access_role', ACCESS_ROLES]] as const).flatMap(([name, allowed]) => {
    const value = filters[name];
    if (typeof value !== 'string' || (allowed as readonly string[]).includes(value)) return [];
    return [errorAt(name, `${typeName}: ${name} ${JSON.stringify(value)} is not one the API reports, so it would match no server`, `use one of ${allowed.map((v) => JSON.stringify(v)).join(', ')} (values are lower case)`)];
  });
}
