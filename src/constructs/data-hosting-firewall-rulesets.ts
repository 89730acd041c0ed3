import type { Construct } from 'constructs';
import { DataHostingSource } from './data-hosting-source';
import { HostingRulesetList } from './data-references';
import type { HostingApi } from './hosting-api';
import type { HostingMetaArguments } from './meta-arguments';

export interface DataHostingFirewallRulesetsProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
}

/** The rule sets a VPS firewall can apply (the `hosting_firewall_rulesets` data source). Needs `network:read`. */
export class DataHostingFirewallRulesets extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingFirewallRulesetsProps) {
    super(scope, id, props.api, 'hosting_firewall_rulesets', {}, props);
  }

  /** Each rule set's id and name. */
  public get rulesets(): HostingRulesetList {
    return new HostingRulesetList(this.dataSource, 'rulesets');
  }
}
