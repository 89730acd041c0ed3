import { ACTIONS } from './actions';
import { PROVIDER_SCHEMA } from './configure';
import { DATA_SOURCES } from './data-sources';
import type { DocsInput } from './docs';
import { LIST_RESOURCES } from './list-resources';
import { RESOURCES } from './resources';

/** Every type the provider serves, as the docs take them (docgen's scripts/provider-docs.js and the tests). */
export function documentedTypes(): Omit<DocsInput, 'example' | 'providerGuide'> {
  return {
    provider: PROVIDER_SCHEMA,
    resources: [...RESOURCES.values()].map((r) => ({ ...r, identity: r.identity.attributes })),
    dataSources: [...DATA_SOURCES.values()],
    listResources: [...LIST_RESOURCES.values()].map(({ resource, schema }) => ({
      typeName: resource.typeName, schema, identity: resource.identity.attributes,
    })),
    actions: [...ACTIONS.values()],
  };
}
