import type { ITerraformDependable, ITerraformIterator, TerraformCount, TerraformResourceLifecycle } from './cdk';

/**
 * cdktf's meta-arguments, with cdktf's names and types, for every construct of this library: one
 * construct for every server is `forEach` over a data source's ids.
 */
export interface HostingMetaArguments {
  /**
   * Resources this one waits for.
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
  /**
   * How many instances, as cdktf's `count` (a number or a `TerraformCount`). Bridge.PROVIDER only
   * for resources.
   * @default - one instance
   */
  readonly count?: number | TerraformCount;
  /**
   * One instance per element of a `TerraformIterator` (`TerraformIterator.fromList(servers.ids)`);
   * use `iterator.value` for the server id. Bridge.PROVIDER only for resources.
   * @default - one instance
   */
  readonly forEach?: ITerraformIterator;
  /**
   * Terraform's `lifecycle` block (`ignoreChanges`, `preventDestroy`, `createBeforeDestroy`,
   * pre- and postconditions). Bridge.PROVIDER only for resources.
   * @default - none
   */
  readonly lifecycle?: TerraformResourceLifecycle;
}
