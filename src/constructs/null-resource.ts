import type { Construct } from 'constructs';
import { TerraformProvider, TerraformResource, TerraformStack, type IResolvable, type TerraformMetaArguments } from './cdk';

/*
 * `null_resource` of the `hashicorp/null` provider (Bridge.NULL_RESOURCE), written as plain
 * Terraform JSON instead of through the prebuilt `@cdktf/provider-null` bindings: no language then
 * needs those bindings installed (they would be a hard requirement of the Python wheel). The JSON
 * is the one the bindings write, so upgrading the library replaces no resource.
 */

const NULL_METADATA = { providerName: 'null', providerVersion: '3.2.4', providerVersionConstraint: '~> 3.0' };
const NULL_PROVIDER_ID = 'cdktf-server-hosting-null-provider';

class NullProvider extends TerraformProvider {
  constructor(scope: Construct, id: string) {
    super(scope, id, { terraformResourceType: 'null', terraformGeneratorMetadata: NULL_METADATA, terraformProviderSource: 'null' });
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return {};
  }
}

/** The null provider, configured once per stack. */
export function ensureNullProvider(stack: TerraformStack): void {
  if (!stack.node.tryFindChild(NULL_PROVIDER_ID)) new NullProvider(stack, NULL_PROVIDER_ID);
}

/** A `null_resource` whose only argument is `triggers`. */
export class NullResource extends TerraformResource {
  constructor(scope: Construct, id: string, private readonly triggerValues: Record<string, string>, meta: TerraformMetaArguments = {}) {
    ensureNullProvider(TerraformStack.of(scope));
    super(scope, id, { terraformResourceType: 'null_resource', terraformGeneratorMetadata: NULL_METADATA, ...meta });
  }

  /** A reference to the stored `triggers` map. */
  public get triggersReference(): IResolvable {
    return this.interpolationForAttribute('triggers');
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return { triggers: this.triggerValues };
  }
}
