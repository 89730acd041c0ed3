import type { Construct } from 'constructs';
import type { IResolvable } from './cdk';
import { DataHostingSource } from './data-hosting-source';
import { HostingIncidentList } from './data-references';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';
import { checkIpv4, checkServerId } from './validation';

export interface DataHostingDdosProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
  /** The server id. */
  readonly serverId: string | IResolvable;
  /**
   * The IPv4 address to inspect.
   * @default - the primary address
   */
  readonly ip?: string;
}

/** DDoS protection status and recent incidents of one server address (the `hosting_ddos` data source). Needs `network:read`. */
export class DataHostingDdos extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingDdosProps) {
    super(scope, id, props.api, 'hosting_ddos', { server_id: asText(props.serverId), ip: asText(props.ip) }, props);
    checkServerId(this, asText(props.serverId));
    if (props.ip !== undefined) checkIpv4(this, props.ip);
  }

  /** The inspected address. */
  public get address(): string {
    return this.dataSource.getStringAttribute('address');
  }

  /** `protected` or `unavailable`. */
  public get status(): string {
    return this.dataSource.getStringAttribute('status');
  }

  public get incidents(): HostingIncidentList {
    return new HostingIncidentList(this.dataSource, 'incidents');
  }

  public get totalIncidents(): number {
    return this.dataSource.getNumberAttribute('total_incidents');
  }

  /** Every address of the server that `ip` accepts. */
  public get addresses(): string[] {
    return this.dataSource.getListAttribute('addresses');
  }
}
