import type { Construct } from 'constructs';
import type { IResolvable } from './cdk';
import { DataHostingSource } from './data-hosting-source';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';
import { checkServerId } from './validation';

export interface DataHostingServerFirewallProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
  /** A VPS id (`vps_…`). */
  readonly serverId: string | IResolvable;
}

/** The firewall of one VPS as it is (the `hosting_server_firewall` data source). Needs `network:read`. */
export class DataHostingServerFirewall extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingServerFirewallProps) {
    super(scope, id, props.api, 'hosting_server_firewall', { server_id: asText(props.serverId) }, props);
    checkServerId(this, asText(props.serverId), 'vps');
  }

  /** Whether the firewall is on. */
  public get enabled(): IResolvable {
    return this.dataSource.getBooleanAttribute('enabled');
  }

  /** The ids of the rule sets that apply. */
  public get rulesets(): number[] {
    return this.dataSource.getNumberListAttribute('rulesets');
  }
}
