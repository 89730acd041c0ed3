import type { Construct } from 'constructs';
import type { IResolvable } from './cdk';
import { DataHostingSource } from './data-hosting-source';
import { HostingEditableReference, HostingProtectionReference } from './data-references';
import type { HostingApi } from './hosting-api';
import { asText, type HostingMetaArguments } from './meta-arguments';
import { checkIpv4, checkServerId } from './validation';

export interface DataHostingIpSettingsProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
  /** A dedicated server id (`ded_…`). */
  readonly serverId: string | IResolvable;
  /** One IPv4 address of the server. */
  readonly ip: string;
}

/** The settings of one address of a dedicated server, and which of them this token may edit (the `hosting_ip_settings` data source). Needs `network:read`. */
export class DataHostingIpSettings extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingIpSettingsProps) {
    super(scope, id, props.api, 'hosting_ip_settings', { server_id: asText(props.serverId), ip: asText(props.ip) }, props);
    checkServerId(this, asText(props.serverId), 'ded');
    checkIpv4(this, props.ip);
  }

  /** The reverse DNS name, or null. */
  public get rdns(): string {
    return this.dataSource.getStringAttribute('rdns');
  }

  /** The description, or null. */
  public get description(): string {
    return this.dataSource.getStringAttribute('description');
  }

  /** The DDoS protection modes. */
  public get protection(): HostingProtectionReference {
    return new HostingProtectionReference(this.dataSource, 'protection');
  }

  /** Which fields this token may change. */
  public get editable(): HostingEditableReference {
    return new HostingEditableReference(this.dataSource, 'editable');
  }
}
