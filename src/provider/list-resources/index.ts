import { ipSettingsList } from './ip-settings';
import type { ProviderListResource } from './list-resource';
import { powerStateList } from './power-state';
import { serverFirewallList } from './server-firewall';

export { configFromState, listObjects, validateListConfig, type ListEntry, type ProviderListResource } from './list-resource';

/** Every list resource the provider serves, by the type name of the resource it lists. */
export const LIST_RESOURCES: ReadonlyMap<string, ProviderListResource> = new Map(
  [serverFirewallList, ipSettingsList, powerStateList].map((list) => [list.resource.typeName, list]),
);
