import type { Construct } from 'constructs';
import type { IResolvable } from './cdk';
import { DataHostingSource } from './data-hosting-source';
import { HostingBandwidthReference, HostingStorageList, HostingUsageReference } from './data-references';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';
import { checkServerId } from './validation';

export interface DataHostingServerMetricsProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
  /** The server id. */
  readonly serverId: string | IResolvable;
}

/** Resource usage of one server (the `hosting_server_metrics` data source); members may be null. Needs `servers:read`. */
export class DataHostingServerMetrics extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingServerMetricsProps) {
    super(scope, id, props.api, 'hosting_server_metrics', { server_id: asText(props.serverId) }, props);
    checkServerId(this, asText(props.serverId));
  }

  public get sampledAt(): string {
    return this.dataSource.getStringAttribute('sampled_at');
  }

  public get cpuPercent(): number {
    return this.dataSource.getNumberAttribute('cpu_percent');
  }

  public get memory(): HostingUsageReference {
    return new HostingUsageReference(this.dataSource, 'memory');
  }

  /** Each mount point's usage. */
  public get storage(): HostingStorageList {
    return new HostingStorageList(this.dataSource, 'storage');
  }

  /** Traffic used in the current billing month. */
  public get bandwidth(): HostingBandwidthReference {
    return new HostingBandwidthReference(this.dataSource, 'bandwidth');
  }
}
