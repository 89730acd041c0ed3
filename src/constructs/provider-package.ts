import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TerraformProvider, TerraformResource, TerraformStack, type ISynthesisSession, type ITerraformDependable } from 'cdktf';
// cdktf's index does not export it; the synthesizer module is its public home.
import { addCustomSynthesis } from 'cdktf/lib/synthesize/synthesizer';
import type { Construct } from 'constructs';
import { PROVIDER_SOURCE, PROVIDER_TYPE } from '../contract/provider-address';

/** The provider bundle, found by file path (never imported): `<package>/assets/provider/provider.js`. */
export const PROVIDER_BUNDLE_PATH = join(__dirname, '..', '..', 'assets', 'provider', 'provider.js');
const PROVIDER_ID = 'cdktf-server-hosting-provider';
const PLATFORMS = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64'];

/**
 * The version written into the stack changes whenever the bundle does: Terraform's lock file
 * records a hash of the package, and a changed package under an unchanged version fails every
 * later plan. `1.0.<first 28 bits of the bundle's sha256>`.
 */
export function providerVersion(bundle: Buffer): string {
  return `1.0.${parseInt(createHash('sha256').update(bundle).digest('hex').slice(0, 7), 16)}`;
}

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
 * CLI configuration. The whole package stays inside that directory: the lock file's hash covers
 * it, and a wrapper pointing elsewhere would leave the bundle unchecked.
 */
export function hostingProvider(scope: Construct, config: HostingProviderConfig): TerraformProvider {
  const stack = TerraformStack.of(scope);
  const existing = stack.node.tryFindChild(PROVIDER_ID);
  if (existing) return existing as TerraformProvider;
  if (!existsSync(PROVIDER_BUNDLE_PATH)) {
    throw new Error(`The provider bundle is missing at ${PROVIDER_BUNDLE_PATH}; build it with "npx projen bundle:provider" (installed packages ship it)`);
  }
  const version = providerVersion(readFileSync(PROVIDER_BUNDLE_PATH));
  const provider = new HostingProvider(stack, PROVIDER_ID, version, config);
  addCustomSynthesis(provider, {
    onSynthesize(session: ISynthesisSession) {
      const stackDir = join(session.outdir, session.manifest.forStack(stack).workingDirectory);
      for (const platform of PLATFORMS) {
        const dir = join(stackDir, 'terraform.d', 'plugins', ...PROVIDER_SOURCE.split('/'), version, platform);
        mkdirSync(dir, { recursive: true });
        copyFileSync(PROVIDER_BUNDLE_PATH, join(dir, 'provider.js'));
        const wrapper = join(dir, `terraform-provider-${PROVIDER_TYPE}_v${version}`);
        writeFileSync(wrapper, '#!/bin/sh\nexec node "$(dirname "$0")/provider.js" "$@"\n');
        chmodSync(wrapper, 0o755);
      }
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
