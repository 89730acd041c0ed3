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

/**
 * A boolean prop as the bridge document's boolean: a token (a variable's `booleanValue`) stays a
 * reference in the document, which Terraform's `jsonencode` turns into the boolean at plan.
 */
export const asDocumentBoolean = (value: boolean | IResolvable | undefined): boolean | undefined => value as boolean | undefined;

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

/**
 * A construct with `forEach` or `count` stands for several instances, so what it reads (`serverId`,
 * `appliedRulesets`) would synthesize `each.key` or an address without an instance key: cdktf writes
 * it silently and Terraform refuses it only at plan, far from the line that read it.
 */
export function checkOneInstanceRead(scope: IConstruct, repeated: boolean, prop: string, attribute: string): void {
  if (repeated) {
    throw new ValidationError(scope, prop, 'is read from a construct with forEach or count, which stands for several instances: '
      + `give other repeated constructs the iterator itself (iterator.key), and read one instance as \${<resource.fqn>["<key>"].${attribute}}`);
  }
}
