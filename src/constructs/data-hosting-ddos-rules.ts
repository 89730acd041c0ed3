import type { Construct } from 'constructs';
import type { IResolvable } from './cdk';
import { DataHostingSource } from './data-hosting-source';
import { HostingDdosRuleList } from './data-references';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';
import { checkIpv4, checkServerId } from './validation';

export interface DataHostingDdosRulesProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
  /** A dedicated server id (`ded_…`). */
  readonly serverId: string | IResolvable;
  /** One IPv4 address of the server. */
  readonly ip: string;
}

/** The DDoS filter rules of one address of a dedicated server (the `hosting_ddos_rules` data source). Needs `network:read`. */
export class DataHostingDdosRules extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingDdosRulesProps) {
    super(scope, id, props.api, 'hosting_ddos_rules', { server_id: asText(props.serverId), ip: asText(props.ip) }, props);
    checkServerId(this, asText(props.serverId), 'ded');
    checkIpv4(this, props.ip);
  }

  /** Whether filter rules are available for the address. */
  public get available(): IResolvable {
    return this.dataSource.getBooleanAttribute('available');
  }

  public get rules(): HostingDdosRuleList {
    return new HostingDdosRuleList(this.dataSource, 'rules');
  }
}
