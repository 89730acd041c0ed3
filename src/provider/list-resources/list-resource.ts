import type { Server } from '../../api/schemas';
import { errorAt } from '../diagnostics';
import { importIdOf } from '../resources/identity';
import type { ObjectValue, ProviderResource } from '../resources/resource';
import { schemaOf } from '../schema';
import { filterProblems, SERVER_FILTER_ATTRIBUTES, selectsServer } from '../server-filters';
import type { ProviderSession } from '../session';

/*
 * List resources (Terraform 1.14+, `terraform query`): per managed type, the objects of the account
 * it could manage, each by its identity. One GET /servers (the run's shared read) names them all;
 * only with the resource object asked for (`-generate-config-out`, `include_resource = true`) is
 * each one read, the way an import reads it. Shared servers are left out, as `adopt` leaves them:
 * the account cannot change them.
 */

/** One object a list finds: its identity, which `import` blocks name, and a name for people. */
export interface ListEntry {
  readonly identity: ObjectValue;
  readonly displayName: string;
}

export interface ProviderListResource {
  /** The managed resource type it lists, whose name it shares (Terraform requires it). */
  readonly resource: ProviderResource;
  readonly schema: ReturnType<typeof schemaOf>;
  /** The objects of the listed servers this type manages. */
  entries(servers: readonly Server[]): ListEntry[];
}

export const label = (server: Server) => `${server.name} (${server.id})`;
/** The servers the account can change: shared ones are never listed. */
export const own = (servers: readonly Server[]) => servers.filter((s) => s.accessRole === 'primary');

export const listSchema = (what: string) =>
  schemaOf(`${what} Filters select servers as \`hosting_servers\` does; shared servers are never listed (the account cannot change them).`, SERVER_FILTER_ATTRIBUTES);

export function validateListConfig(list: ProviderListResource, filters: ObjectValue) {
  const shared = filters.access_role === 'secondary'
    ? [errorAt('access_role', `${list.resource.typeName}: shared servers (access_role "secondary") are never listed, because the account cannot change them`, 'leave access_role unset, or set it to "primary"')]
    : [];
  return [...filterProblems(list.resource.typeName, filters), ...shared];
}

/** What a list finds, at most `limit`; with `includeObject`, each with its state as an import reads it. */
export async function* listObjects(
  session: ProviderSession, list: ProviderListResource, filters: ObjectValue, includeObject: boolean, limit: number,
) {
  const servers = (await session.serverList()).data.filter(selectsServer(filters));
  for (const entry of list.entries(servers).slice(0, limit > 0 ? limit : undefined)) {
    yield { ...entry, state: includeObject ? await readAsImported(session, list.resource, entry.identity) : undefined };
  }
}

/** The object's state as `terraform import` reads it, or null when it is gone. */
async function readAsImported(session: ProviderSession, resource: ProviderResource, identity: ObjectValue) {
  return (await resource.read(session, resource.importState(importIdOf(resource, identity)), {})).state;
}

/**
 * The configuration of a listed object for `-generate-config-out`: every argument as it is now,
 * computed-only attributes left out, so the generated resource's first plan imports only.
 */
export function configFromState(resource: ProviderResource, state: ObjectValue): ObjectValue {
  return Object.fromEntries(resource.schema.block.attributes.map((a) => [a.name, a.required || a.optional ? (state[a.name] ?? null) : null]));
}
