import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Construct } from 'constructs';
import { addCustomSynthesis, TerraformDataSource, TerraformProvider, TerraformResource, TerraformStack, type ISynthesisSession, type TerraformMetaArguments } from './cdk';
import { literalAttributes } from './literal-text';
import { pythonDrives, ValidationError } from './validation';
import { PROVIDER_SOURCE, PROVIDER_TYPE } from '../contract/provider-address';
import { lockFileWithProvider, providerVersion, readProviderBundle, readStandaloneMirror, scriptPackage, writeProviderMirror } from '../contract/provider-mirror';

const PROVIDER_ID = 'cdktf-server-hosting-provider';

export interface HostingProviderConfig {
  readonly baseUrl?: string;
  readonly tokenEnvVar: string;
  readonly allowInsecureHttp: boolean;
  readonly changedSincePlan?: string;
}

/** A `hosting` provider block of a stack; `required_providers` pins the version of the bundle it carries. */
class HostingProvider extends TerraformProvider {
  private providerAlias?: string;

  constructor(
    scope: Construct,
    id: string,
    version: string,
    private readonly config: HostingProviderConfig,
    /** The standalone mirror the stack's package comes from (the default provider only), or undefined for the script. */
    public readonly standaloneMirror?: string,
    alias?: string,
  ) {
    super(scope, id, {
      terraformResourceType: PROVIDER_TYPE,
      terraformProviderSource: PROVIDER_SOURCE,
      terraformGeneratorMetadata: { providerName: PROVIDER_TYPE, providerVersion: version },
    });
    this.providerAlias = alias;
  }

  // cdktf's base class keeps no alias of its own: each provider class holds it.
  public get alias(): string | undefined {
    return this.providerAlias;
  }

  public set alias(value: string | undefined) {
    this.providerAlias = value;
  }

  /** Connections that are equal share one provider configuration. */
  public serves(config: HostingProviderConfig): boolean {
    return connectionKey(config) === connectionKey(this.config);
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return literalAttributes({
      base_url: this.config.baseUrl,
      token_env_var: this.config.tokenEnvVar,
      allow_insecure_http: this.config.allowInsecureHttp || undefined,
      changed_since_plan: this.config.changedSincePlan,
      // The provider then names every setting in its messages as the stack's author wrote it.
      message_language: pythonDrives() ? 'python' : 'typescript',
    });
  }
}

const connectionKey = (config: HostingProviderConfig) =>
  JSON.stringify([
    config.baseUrl ?? null, config.tokenEnvVar, config.allowInsecureHttp, config.changedSincePlan ?? null,
  ]);

/**
 * The provider configuration of one connection. The first connection of a stack is the default
 * `hosting` provider; each other distinct one (another URL, another token variable) gets its own
 * configuration under an alias named after its `HostingApi` construct, so every resource reaches
 * the API its construct names. The package is written once per stack into the stack's directory,
 * as Terraform's implied local mirror (`terraform.d/plugins/…`), so `terraform init` installs it
 * offline with no CLI configuration, with its hash for every platform in the stack's lock file.
 */
export function hostingProvider(api: Construct, config: HostingProviderConfig, standaloneMirror?: string): TerraformProvider {
  const stack = TerraformStack.of(api);
  const existing = stack.node.children.filter((c): c is HostingProvider => c instanceof HostingProvider);
  if (existing.length && existing[0].standaloneMirror !== standaloneMirror) {
    throw new ValidationError(api, 'standaloneProvider', `is ${JSON.stringify(standaloneMirror ?? null)}, but another HostingApi of the stack has ${JSON.stringify(existing[0].standaloneMirror ?? null)}: a stack carries one provider package, so give every HostingApi of it the same value`);
  }
  const same = existing.find((p) => p.serves(config));
  if (same) return same;
  const bundle = readProviderBundle();
  const version = providerVersion(bundle);
  if (existing.length === 0) {
    const provider = new HostingProvider(stack, PROVIDER_ID, version, config, standaloneMirror);
    addCustomSynthesis(provider, {
      onSynthesize(session: ISynthesisSession) {
        const stackDir = join(session.outdir, session.manifest.forStack(stack).workingDirectory);
        const pkg = standaloneMirror === undefined ? scriptPackage(bundle, version) : readStandaloneMirror(standaloneMirror, version);
        writeProviderMirror(join(stackDir, 'terraform.d', 'plugins'), pkg);
        // The hash of every platform, so `terraform init` records them without warning that the lock file is incomplete.
        const lockFile = join(stackDir, '.terraform.lock.hcl');
        writeFileSync(lockFile, lockFileWithProvider(existsSync(lockFile) ? readFileSync(lockFile, 'utf8') : undefined, pkg));
      },
    });
    return provider;
  }
  const alias = uniqueAlias(api.node.id, existing.map((p) => p.alias));
  return new HostingProvider(stack, `${PROVIDER_ID}-${alias}`, version, config, standaloneMirror, alias);
}

/** A Terraform alias from a construct id: lower-case letters, digits and underscores, starting with a letter. */
function uniqueAlias(id: string, taken: ReadonlyArray<string | undefined>): string {
  const base = `${/^[a-z]/.test(id.toLowerCase()) ? '' : 'api_'}${id.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`;
  let alias = base;
  for (let n = 2; taken.includes(alias); n++) alias = `${base}_${n}`;
  return alias;
}

/** A resource of the `hosting` provider with plain attributes. */
export class HostingProviderResource extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    type: string,
    private readonly attributes: { [name: string]: unknown },
    provider: TerraformProvider,
    meta: TerraformMetaArguments = {},
  ) {
    super(scope, id, { ...meta, terraformResourceType: type, provider });
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return literalAttributes(this.attributes);
  }
}

/** A data source of the `hosting` provider with plain arguments. */
export class HostingProviderDataSource extends TerraformDataSource {
  constructor(
    scope: Construct,
    id: string,
    type: string,
    private readonly args: { [name: string]: unknown },
    provider: TerraformProvider,
    meta: TerraformMetaArguments = {},
  ) {
    super(scope, id, { ...meta, terraformResourceType: type, provider });
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return literalAttributes(this.args);
  }
}
