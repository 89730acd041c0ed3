import { Construct, type IConstruct } from 'constructs';
import { Bridge } from './bridge';
import { TerraformStack, type TerraformResource } from './cdk';
import type { HostingApi } from './hosting-api';
import { ensureNullProvider } from './null-resource';
import { ValidationError } from './validation';

export type { MovedFromBridgeProps } from './moved-from-bridge-props';

/** The construct ids a bridge gave its own resource and its helpers (PowerState: the reboot records). */
export interface BridgeIds {
  readonly moved: string;
  readonly forgotten?: readonly string[];
}

const TYPE_OF_BRIDGE: Partial<Record<Bridge, string>> = { [Bridge.TERRAFORM_DATA]: 'terraform_data', [Bridge.NULL_RESOURCE]: 'null_resource' };
const FORGOTTEN = new WeakMap<TerraformStack, string[]>();

/**
 * Moves `resource` from the bridge resource the construct had under `from`: the same construct
 * path gives the same logical id, so the address is the one the earlier synth wrote.
 */
export function moveFromBridge(
  scope: IConstruct, resource: TerraformResource, api: HostingApi, from: Bridge | undefined, repeated: boolean, ids: BridgeIds,
): void {
  if (from === undefined) return;
  const type = TYPE_OF_BRIDGE[from];
  if (!type) throw new ValidationError(scope, 'movedFromBridge', `is ${from}, which is not a bridge: use Bridge.TERRAFORM_DATA or Bridge.NULL_RESOURCE, the one the construct was synthesized with before`);
  if (api.bridge !== Bridge.PROVIDER) {
    throw new ValidationError(scope, 'movedFromBridge', `moves a construct to Bridge.PROVIDER, but its HostingApi uses ${api.bridge}; set the HostingApi's bridge to Bridge.PROVIDER (the default)`);
  }
  if (repeated) throw new ValidationError(scope, 'movedFromBridge', 'cannot be combined with forEach or count: a bridge construct was always one resource');
  const stack = TerraformStack.of(scope);
  const addressOf = (id: string) => `${type}.${stack.getLogicalId(new Construct(scope, id).node)}`;
  resource.moveFromId(addressOf(ids.moved));
  if (from === Bridge.NULL_RESOURCE) ensureNullProvider(stack); // Terraform needs the provider of what the state still holds.
  if (!ids.forgotten?.length) return;
  const forgotten = [...(FORGOTTEN.get(stack) ?? []), ...ids.forgotten.map(addressOf)];
  FORGOTTEN.set(stack, forgotten);
  stack.addOverride('removed', forgotten.map((address) => ({ from: address, lifecycle: { destroy: false } })));
}
