import type { Construct } from 'constructs';
import type { IResolvable } from './cdk';
import { DataHostingSource } from './data-hosting-source';
import { HostingInterfaceList, HostingMonthList, HostingTrafficTotalsReference } from './data-references';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';
import { checkServerId } from './validation';

export interface DataHostingServerTrafficProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
  /** The server id. */
  readonly serverId: string | IResolvable;
}

/**
 * Traffic of one server (the `hosting_server_traffic` data source): `rates` for dedicated servers
 * (the last 24 hours of port rates), `monthly` for VPS (transfer per billing month); the members of
 * the other kind are null or empty. Needs `network:read`.
 */
export class DataHostingServerTraffic extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingServerTrafficProps) {
    super(scope, id, props.api, 'hosting_server_traffic', { server_id: asText(props.serverId) }, props);
    checkServerId(this, asText(props.serverId));
  }

  /** `rates` or `monthly`. */
  public get kind(): string {
    return this.dataSource.getStringAttribute('kind');
  }

  /** Start of the window (rates). */
  public get windowStart(): string {
    return this.dataSource.getStringAttribute('from');
  }

  /** End of the window (rates). */
  public get windowEnd(): string {
    return this.dataSource.getStringAttribute('to');
  }

  /** Transfer volume over the window (rates). */
  public get totals(): HostingTrafficTotalsReference {
    return new HostingTrafficTotalsReference(this.dataSource, 'totals');
  }

  /** Per interface, the incoming and outgoing rates (rates). */
  public get interfaces(): HostingInterfaceList {
    return new HostingInterfaceList(this.dataSource, 'interfaces');
  }

  /** Transfer per billing month (monthly). */
  public get months(): HostingMonthList {
    return new HostingMonthList(this.dataSource, 'months');
  }
}
