import { join } from 'node:path';
import { TerraformProvider, TerraformResource, TerraformStack, type ISynthesisSession, type ITerraformDependable } from 'cdktf';
// cdktf's index does not export it; the synthesizer module is its public home.
import { addCustomSynthesis } from 'cdktf/lib/synthesize/synthesizer';
import type { Construct } from 'constructs';
import { PROVIDER_SOURCE, PROVIDER_TYPE } from '../contract/provider-address';
import { providerVersion, readProviderBundle, writeProviderMirror } from '../contract/provider-mirror';

const PROVIDER_ID = 'cdktf-server-hosting-provider';

export interface HostingProviderConfig {
  readonly baseUrl?: string;
  readonly tokenEnvVar: string;
  readonly allowInsecureHttp: boolean;
}

/** The `hosting` provider block of a stack; `required_providers` pins the version of the bundle it carries. */
class HostingProvider extends TerraformProvider {
  constructor(scope: Construct, id: string, version: string, private readonly config: HostingProviderConfig) {
    super(scope, id, {
      terraformResourceType: PROVIDER_TYPE,
      terraformProviderSource: PROVIDER_SOURCE,
      terraformGeneratorMetadata: { providerName: PROVIDER_TYPE, providerVersion: version },
    });
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return {
      base_url: this.config.baseUrl,
      token_env_var: this.config.tokenEnvVar,
      allow_insecure_http: this.config.allowInsecureHttp || undefined,
    };
  }
}

/**
 * The provider of a stack, created once, and written into the stack's directory as Terraform's
 * implied local mirror (`terraform.d/plugins/…`), so `terraform init` installs it offline with no
 * CLI configuration.
 */
export function hostingProvider(scope: Construct, config: HostingProviderConfig): TerraformProvider {
  const stack = TerraformStack.of(scope);
  const existing = stack.node.tryFindChild(PROVIDER_ID);
  if (existing) return existing as TerraformProvider;
  const bundle = readProviderBundle();
  const version = providerVersion(bundle);
  const provider = new HostingProvider(stack, PROVIDER_ID, version, config);
  addCustomSynthesis(provider, {
    onSynthesize(session: ISynthesisSession) {
      const stackDir = join(session.outdir, session.manifest.forStack(stack).workingDirectory);
      writeProviderMirror(join(stackDir, 'terraform.d', 'plugins'), bundle, version);
    },
  });
  return provider;
}

/** A resource of the `hosting` provider with plain attributes. */
export class HostingProviderResource extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    type: string,
    private readonly attributes: { [name: string]: unknown },
    provider: TerraformProvider,
    dependsOn?: ITerraformDependable[],
  ) {
    super(scope, id, { terraformResourceType: type, provider, dependsOn });
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return this.attributes;
  }
}
