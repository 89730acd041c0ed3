import { Construct } from 'constructs';
import type { IResolvable, TerraformDataSource } from './cdk';
import type { HostingApi } from './hosting-api';
import { metaArgumentsOf, type HostingMetaArguments } from './meta-arguments';
import { HostingProviderDataSource } from './provider-package';

/**
 * What every data source construct has: the `hosting_…` data source, read at plan time through this
 * package's provider (whatever the bridge), and where its data came from.
 */
export abstract class DataHostingSource extends Construct {
  /** The Terraform data source. */
  public readonly dataSource: TerraformDataSource;

  protected constructor(scope: Construct, id: string, api: HostingApi, type: string, args: { [name: string]: unknown }, meta: HostingMetaArguments) {
    super(scope, id);
    this.dataSource = new HostingProviderDataSource(this, 'data', type, args, api._provider(), metaArgumentsOf(this, meta));
  }

  /** When the API observed the data. */
  public get observedAt(): string {
    return this.dataSource.getStringAttribute('observed_at');
  }

  /** True when live data was unavailable and the API served its last good value (a warning says so too). */
  public get stale(): IResolvable {
    return this.dataSource.getBooleanAttribute('stale');
  }
}
