import type { IConstruct } from 'constructs';
import { Bridge } from './bridge';
import { Token, Tokenization, type ITerraformDependable, type ITerraformIterator, type TerraformCount, type TerraformMetaArguments, type TerraformResourceLifecycle } from './cdk';
import { checkProviderBridge } from './validation';

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

const BRIDGE_WHY = 'a bridge resource runs its handler once per resource, and a power state\'s bridge is three resources that must stay one; use the provider (the default), which serves every instance';

/**
 * The meta-arguments of a construct's Terraform element. `count`, `forEach` and `lifecycle` need
 * the provider for resources; data sources always use it.
 */
export function metaArgumentsOf(scope: IConstruct, props: HostingMetaArguments, bridge: Bridge = Bridge.PROVIDER): TerraformMetaArguments {
  for (const name of ['count', 'forEach', 'lifecycle'] as const) {
    if (props[name] !== undefined) checkProviderBridge(scope, bridge, name, BRIDGE_WHY);
  }
  return { dependsOn: props.dependsOn, count: props.count, forEach: props.forEach, lifecycle: props.lifecycle };
}

/**
 * A string prop as a string: an iterator's `value` or another resolvable passed as is (what a
 * Python user writes first, `server_id=it.value`) becomes the token string cdktf makes of it, so
 * the synth-time checks leave it for the provider to check at plan.
 */
export function asText<T extends string | undefined>(value: T): T {
  return (Tokenization.isResolvable(value) ? Token.asString(value) : value) as T;
}
