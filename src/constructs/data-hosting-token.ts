import type { Construct } from 'constructs';
import { DataHostingSource } from './data-hosting-source';
import type { HostingApi } from './hosting-api';
import type { HostingMetaArguments } from './meta-arguments';

export interface DataHostingTokenProps extends HostingMetaArguments {
  /** The API connection. */
  readonly api: HostingApi;
}

/** The token the provider uses (GET /connect, the `hosting_token` data source). Needs no scope. */
export class DataHostingToken extends DataHostingSource {
  constructor(scope: Construct, id: string, props: DataHostingTokenProps) {
    super(scope, id, props.api, 'hosting_token', {}, props);
  }

  public get accountId(): number {
    return this.dataSource.getNumberAttribute('account_id');
  }

  public get tokenName(): string {
    return this.dataSource.getStringAttribute('token_name');
  }

  /** `personal_token` or `reseller_token`. */
  public get tokenType(): string {
    return this.dataSource.getStringAttribute('token_type');
  }

  /** The scopes the token carries, e.g. `servers:read`. */
  public get scopes(): string[] {
    return this.dataSource.getListAttribute('scopes');
  }

  /** The address the API sees requests come from (check it against the token's allowlist). */
  public get sourceIp(): string {
    return this.dataSource.getStringAttribute('source_ip');
  }

  public get apiVersion(): string {
    return this.dataSource.getStringAttribute('api_version');
  }
}
