import type { Construct } from 'constructs';
import { DataHostingSource } from './data-hosting-source';
import { HostingServerList } from './data-references';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';

export interface DataHostingServersProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
  /**
   * Only servers of this type: `vps`, `vds` or `dedicated`.
   * @default - every type
   */
  readonly serverType?: string;
  /**
   * Only servers in this status, e.g. `active`.
   * @default - every status
   */
  readonly status?: string;
  /**
   * Only servers with exactly this name.
   * @default - every name
   */
  readonly name?: string;
  /**
   * Only servers of this access role: `primary` (the account's own) or `secondary` (shared with it,
   * read-only for it). "Every server I own" is `accessRole: 'primary'`.
   * @default - both
   */
  readonly accessRole?: string;
}

/**
 * The servers of the account, shared ones included (the `hosting_servers` data source; GET
 * /servers is read once per run however many data sources and resources need it). Needs
 * `servers:read`.
 */
export class DataHostingServers extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingServersProps) {
    super(scope, id, props.api, 'hosting_servers', { type: props.serverType, status: props.status, name: asText(props.name), access_role: props.accessRole }, props);
  }

  /** The ids of the matching servers, in the API's order. */
  public get ids(): string[] {
    return this.dataSource.getListAttribute('ids');
  }

  /** The matching servers: `servers.get(0).name`. */
  public get servers(): HostingServerList {
    return new HostingServerList(this.dataSource, 'servers');
  }
}
