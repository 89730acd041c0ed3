import { ipSettingsResource } from './ip-settings';
import { powerStateResource } from './power-state';
import type { ProviderResource } from './resource';
import { serverFirewallResource } from './server-firewall';

/** Every resource type the provider serves, by Terraform type name. */
export const RESOURCES: ReadonlyMap<string, ProviderResource> = new Map(
  [serverFirewallResource, ipSettingsResource, powerStateResource].map((r) => [r.typeName, r]),
);
