import type { Construct } from 'constructs';
import type { IResolvable } from './cdk';
import { DataHostingSource } from './data-hosting-source';
import { HostingIpAddressList } from './data-references';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';
import { checkServerId } from './validation';

export interface DataHostingServerIpsProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
  /** The server id. */
  readonly serverId: string | IResolvable;
}

/** The IP addresses of one server (the `hosting_server_ips` data source). Needs `network:read`. */
export class DataHostingServerIps extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingServerIpsProps) {
    super(scope, id, props.api, 'hosting_server_ips', { server_id: asText(props.serverId) }, props);
    checkServerId(this, asText(props.serverId));
  }

  /** Each address, its version and whether it is the primary one. */
  public get addresses(): HostingIpAddressList {
    return new HostingIpAddressList(this.dataSource, 'addresses');
  }
}
