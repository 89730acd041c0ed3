import type { Construct } from 'constructs';
import type { IResolvable } from './cdk';
import { DataHostingSource } from './data-hosting-source';
import { HostingOperationReference, HostingServerResourcesReference } from './data-references';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';
import { checkServerId, ValidationError } from './validation';

export interface DataHostingServerProps extends HostingMetaArguments {
  /** The API connection. Data sources always run through this package's provider, whatever the bridge. */
  readonly api: HostingApi;
  /**
   * The server id (`vps_…` or `ded_…`). Set exactly one of `serverId` and `name`.
   * @default - selected by `name`
   */
  readonly serverId?: string | IResolvable;
  /**
   * The server's exact name; it must match exactly one server of the account, or the plan fails
   * naming the matches (or the names there are). Set exactly one of `serverId` and `name`.
   * @default - selected by `serverId`
   */
  readonly name?: string;
}

/**
 * One server of the account, read at plan time (the `hosting_server` data source), so a stack
 * selects servers by name instead of hard-coding ids:
 * `new ServerFirewall(this, 'fw', { api, serverId: new DataHostingServer(this, 'web', { api, name: 'web-1' }).serverId, … })`.
 * Needs a token with `servers:read`.
 */
export class DataHostingServer extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingServerProps) {
    super(scope, id, props.api, 'hosting_server', { id: asText(props.serverId), name: asText(props.name) }, props);
    const set = [props.serverId, props.name].filter((v) => v !== undefined);
    if (set.length !== 1) {
      throw new ValidationError(this, 'serverId, name', `${set.length ? 'are both set' : 'are both unset'}; set exactly one`);
    }
    if (props.serverId !== undefined) checkServerId(this, asText(props.serverId));
  }

  /** The server id, for the resources' `serverId`. */
  public get serverId(): string {
    return this.dataSource.getStringAttribute('id');
  }

  /** The server's name. */
  public get name(): string {
    return this.dataSource.getStringAttribute('name');
  }

  /** `vps`, `vds` or `dedicated`. */
  public get serverType(): string {
    return this.dataSource.getStringAttribute('type');
  }

  /** The host name, or null when the server has none. */
  public get hostname(): string {
    return this.dataSource.getStringAttribute('hostname');
  }

  /** `active`, `provisioning`, `building`, `suspended`, `failed` or `terminated`. */
  public get status(): string {
    return this.dataSource.getStringAttribute('status');
  }

  /** `running`, `stopped` or `unknown`, as the plan's read saw it. */
  public get power(): string {
    return this.dataSource.getStringAttribute('power');
  }

  /** The server's IPv4 addresses. */
  public get ipv4(): string[] {
    return this.dataSource.getListAttribute('ipv4');
  }

  /** The server's IPv6 addresses. */
  public get ipv6(): string[] {
    return this.dataSource.getListAttribute('ipv6');
  }

  /** The operating system, or null. */
  public get os(): string {
    return this.dataSource.getStringAttribute('os');
  }

  /** CPU cores, memory, storage and the monthly traffic allowance. */
  public get resources(): HostingServerResourcesReference {
    return new HostingServerResourcesReference(this.dataSource, 'resources');
  }

  /** `primary`, or `secondary` for a server shared with this account (read-only for it). */
  public get accessRole(): string {
    return this.dataSource.getStringAttribute('access_role');
  }

  /** The billing service id, or null. */
  public get serviceId(): number {
    return this.dataSource.getNumberAttribute('service_id');
  }

  /** When the server was created, or null. */
  public get createdAt(): string {
    return this.dataSource.getStringAttribute('created_at');
  }

  /** The power actions this token can run on the server now. */
  public get actions(): string[] {
    return this.dataSource.getListAttribute('actions');
  }

  /** The operation in progress, or null. */
  public get currentOperation(): HostingOperationReference {
    return new HostingOperationReference(this.dataSource, 'current_operation');
  }
}
