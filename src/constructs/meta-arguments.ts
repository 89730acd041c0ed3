import type { IConstruct } from 'constructs';
import { Bridge } from './bridge';
import { Token, Tokenization, type IResolvable, type TerraformMetaArguments } from './cdk';
import type { HostingMetaArguments } from './hosting-meta-arguments';
import { checkProviderBridge, ValidationError } from './validation';

export type { HostingMetaArguments } from './hosting-meta-arguments';

const BRIDGE_WHY = 'a bridge resource runs its handler once per resource, and a power state\'s bridge is three resources that must stay one; use the provider (the default), which serves every instance';

/**
 * The meta-arguments of a construct's Terraform element. `count`, `forEach` and `lifecycle` need
 * the provider for resources; data sources always use it.
 */
export function metaArgumentsOf(scope: IConstruct, props: HostingMetaArguments, bridge: Bridge = Bridge.PROVIDER): TerraformMetaArguments {
  for (const name of ['count', 'forEach', 'lifecycle'] as const) {
    if (props[name] !== undefined) checkProviderBridge(scope, bridge, name, BRIDGE_WHY);
  }
  checkIterator(scope, props.forEach);
  return { dependsOn: props.dependsOn, count: props.count, forEach: props.forEach, lifecycle: props.lifecycle };
}

/**
 * `forEach` is typed as an iterator, but JavaScript (and a cast) can pass anything; cdktf would then
 * fail deep inside its synth ("_getForEachExpression is not a function"), naming no construct.
 */
function checkIterator(scope: IConstruct, forEach: unknown): void {
  if (forEach === undefined || typeof (forEach as { _getForEachExpression?: unknown })._getForEachExpression === 'function') return;
  const type = Array.isArray(forEach) ? 'array' : typeof forEach;
  const what = forEach === null ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
  throw new ValidationError(scope, 'forEach', `must be a TerraformIterator (TerraformIterator.fromList(ids), or fromMap), not ${what}: wrap a list in TerraformIterator.fromList`);
}

/**
 * A string prop as a string: an iterator's `value` or another resolvable passed as is (what a
 * Python user writes first, `server_id=it.value`) becomes the token string cdktf makes of it, so
 * the synth-time checks leave it for the provider to check at plan.
 */
export function asText(value: string | IResolvable): string;
export function asText(value: string | IResolvable | undefined): string | undefined;
export function asText(value: string | IResolvable | undefined): string | undefined {
  return Tokenization.isResolvable(value) ? Token.asString(value) : value;
}

/** Props as the construct works with them: the server id as text (a token string when not known yet). */
export type WithServerIdText<P extends { readonly serverId: string | IResolvable }> = Omit<P, 'serverId'> & { readonly serverId: string };

/** Whether the construct stands for several instances (`forEach` or `count`). */
export const isRepeated = (props: HostingMetaArguments): boolean => props.forEach !== undefined || props.count !== undefined;

/**
 * `importExisting()` writes one `import` block for one address; instances of `forEach` or `count`
 * have an address each, which only Terraform knows once the iterator is read.
 */
export function checkSingleInstance(scope: IConstruct, repeated: boolean): void {
  if (repeated) {
    throw new ValidationError(scope, 'importExisting()', 'adopts one instance, but this construct has forEach or count; import its instances with terraform import \'<address>["<key>"]\' <id>, or use adopt');
  }
}
