import type { ProviderDataSource } from './data-source';
import { ddosDataSource } from './ddos';
import { ddosRulesDataSource } from './ddos-rules';
import { firewallRulesetsDataSource } from './firewall-rulesets';
import { ipSettingsDataSource } from './ip-settings';
import { serverDataSource } from './server';
import { serverFirewallDataSource } from './server-firewall';
import { serverIpsDataSource } from './server-ips';
import { serverMetricsDataSource } from './server-metrics';
import { serverTrafficDataSource } from './server-traffic';
import { serversDataSource } from './servers';
import { tokenDataSource } from './token';

export type { ProviderDataSource } from './data-source';

/** Every data source the provider serves, by Terraform type name. */
export const DATA_SOURCES: ReadonlyMap<string, ProviderDataSource> = new Map(
  [
    tokenDataSource, serversDataSource, serverDataSource, serverIpsDataSource, ipSettingsDataSource, serverFirewallDataSource,
    firewallRulesetsDataSource, serverMetricsDataSource, serverTrafficDataSource, ddosDataSource, ddosRulesDataSource,
  ].map((d) => [d.typeName, d]),
);
