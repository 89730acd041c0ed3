import type { Construct } from 'constructs';
import { Bridge } from './bridge';
import { createBridgeResource } from './bridge-resource';
import type { TerraformMetaArguments, TerraformResource } from './cdk';
import type { HostingApi } from './hosting-api';
import { HostingProviderResource } from './provider-package';
import type { ResourceDocument } from '../contract/resource-document';

export interface ConstructResourceOptions {
  readonly api: HostingApi;
  /** The provider's resource type, e.g. `hosting_server_firewall`. */
  readonly type: string;
  /** One attribute per prop, unset props undefined. */
  readonly attributes: { [name: string]: unknown };
  /** What a bridge resource hands the handler. */
  readonly document: ResourceDocument;
  /** cdktf's meta-arguments (see metaArgumentsOf: only `dependsOn` with a bridge). */
  readonly meta: TerraformMetaArguments;
}

/** A construct's resource: a `hosting_…` resource with the provider, or a bridge resource running the handler. */
export function createConstructResource(scope: Construct, options: ConstructResourceOptions): TerraformResource {
  const { api, meta } = options;
  return api.bridge === Bridge.PROVIDER
    ? new HostingProviderResource(scope, 'resource', options.type, options.attributes, api._provider(), meta)
    : createBridgeResource(scope, 'bridge', { api, document: options.document, dependsOn: meta.dependsOn });
}
