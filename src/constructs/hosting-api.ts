import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Construct } from 'constructs';
import { Bridge } from './bridge';
import { AssetType, TerraformAsset, TerraformStack, Token, type TerraformProvider } from './cdk';
import { ChangedSincePlan, FAIL_SINCE_PLAN_NEEDS_PROVIDER } from './changed-since-plan';
import { hostingProvider } from './provider-package';
import { checkOneOf, checkProviderBridge, ValidationError, inReaderWords } from './validation';
import { isLoopbackHost, isTokenVariableName, printableUrl, TOKEN_VARIABLE_NAME_RULE } from '../contract/patterns';
import { providerVersion, readProviderBundle, STANDALONE_MIRROR_HINT, standaloneMirrorPlatforms } from '../contract/provider-mirror';
import type { ApiConnection } from '../contract/resource-document';

/** The handler bundle, found by file path (never imported): `<package>/assets/handler/index.js`. */
export const HANDLER_BUNDLE_PATH = join(__dirname, '..', '..', 'assets', 'handler', 'index.js');
const HANDLER_ASSET_ID = 'cdktf-server-hosting-handler';

export interface HostingApiProps {
  /**
   * Base URL of the Hosting API, ending in `/api/v1`.
   * @default - the `HOSTING_API_URL` environment variable where Terraform runs
   */
  readonly baseUrl?: string;
  /**
   * The NAME of the environment variable that holds the API token where Terraform runs. The token
   * itself is never written to the synthesized JSON or the Terraform state. Upper-case letters,
   * digits and underscores, at most 64 characters, with no long random-looking part: anything that
   * looks like a credential is refused without being echoed.
   * @default 'HOSTING_API_TOKEN'
   */
  readonly tokenEnvVar?: string;
  /**
   * Allow a plain `http://` base URL to a host other than this machine. The bearer token then
   * crosses the network in clear text; use it only where the path is protected otherwise (e.g. a
   * tunnel). `http://` to loopback addresses (127.0.0.0/8, ::1, localhost) is always allowed.
   * @default false
   */
  readonly allowInsecureHttp?: boolean;
  /**
   * Without effect: every apply reads what it changes before it writes, and names what changed
   * since the plan, however old the plan. Not written to the provider block.
   * @deprecated remove it; a later major version removes it.
   */
  readonly planReadMaxAgeSeconds?: number;
  /**
   * What an apply does with a value someone changed on the server after the plan read it (a saved
   * plan applied later by another job): set the planned value and warn, or fail and leave the change
   * in place. Each ServerFirewall and IpSettings may override it. The provider's `changed_since_plan`.
   * @default ChangedSincePlan.OVERWRITE
   */
  readonly changedSincePlan?: ChangedSincePlan;
  /**
   * How Terraform runs the constructs: this package's provider, or a bridge resource and the handler.
   * @default Bridge.PROVIDER
   */
  readonly bridge?: Bridge;
  /**
   * A directory that `npx cdktf-server-hosting provider mirror --standalone <directory>` wrote (from
   * this same package version): the stack then carries the provider as the standalone executables
   * found there, one per platform, which run where Terraform runs without Node on PATH. Write the
   * mirror with `--platform` for the platforms that apply (each executable is 80 to 127 MB, and each
   * is copied into the synthesized stack). A relative path is resolved against the directory synth
   * runs in. Bridge.PROVIDER only: the bridges run the handler with node.
   * @default - the provider as a script that Terraform runs with the `node` found on PATH (on Windows
   * through a small launcher, `terraform-provider-hosting_v<version>.exe`)
   */
  readonly standaloneProvider?: string;
}

/**
 * The connection that `ServerFirewall`, `IpSettings` and `PowerState` use: where the API is, which
 * environment variable holds the token, and how Terraform runs them (`bridge`).
 */
export class HostingApi extends Construct {
  /** Base URL of the API, or undefined to use HOSTING_API_URL at apply time. */
  public readonly baseUrl?: string;
  /** Name of the environment variable holding the token. */
  public readonly tokenEnvVar: string;
  public readonly bridge: Bridge;
  /** Whether plain http to other hosts was allowed. */
  public readonly allowInsecureHttp: boolean;
  /** The standalone provider's mirror directory, resolved, or undefined for the script provider. */
  public readonly standaloneProvider?: string;
  /**
   * What `planReadMaxAgeSeconds` was given, without effect.
   * @deprecated every apply reads before it writes.
   */
  public readonly planReadMaxAgeSeconds?: number;
  /** The provider's `changed_since_plan`, or undefined for its default (overwrite). */
  public readonly changedSincePlan?: ChangedSincePlan;

  constructor(scope: Construct, id: string, props: HostingApiProps = {}) {
    super(scope, id);
    this.tokenEnvVar = props.tokenEnvVar ?? 'HOSTING_API_TOKEN';
    if (!isTokenVariableName(this.tokenEnvVar)) {
      // The value is not quoted: a token pasted here by mistake must not reach the CI log.
      throw new ValidationError(this, 'tokenEnvVar', `must be the NAME of an environment variable (${TOKEN_VARIABLE_NAME_RULE}), not the token itself; the value is not shown in case it is a secret`);
    }
    this.allowInsecureHttp = props.allowInsecureHttp ?? false;
    if (props.baseUrl !== undefined && !Token.isUnresolved(props.baseUrl)) checkBaseUrl(this, props.baseUrl, this.allowInsecureHttp);
    this.baseUrl = props.baseUrl;
    this.bridge = props.bridge ?? Bridge.PROVIDER;
    if (props.standaloneProvider !== undefined) this.standaloneProvider = checkStandaloneProvider(this, props.standaloneProvider, this.bridge);
    this.planReadMaxAgeSeconds = props.planReadMaxAgeSeconds;
    checkOneOf(this, 'changedSincePlan', props.changedSincePlan, Object.values(ChangedSincePlan));
    if (props.changedSincePlan === ChangedSincePlan.FAIL) checkProviderBridge(this, this.bridge, 'changedSincePlan', FAIL_SINCE_PLAN_NEEDS_PROVIDER);
    this.changedSincePlan = props.changedSincePlan;
  }

  /**
   * Path of the handler inside the stack's synthesized directory (the bridges); the first call adds
   * the handler to the stack as an asset.
   * @internal
   */
  public _handlerPath(): string {
    return handlerAsset(TerraformStack.of(this)).path;
  }

  /**
   * The stack's `hosting` provider, configured with this connection (Bridge.PROVIDER).
   * @internal
   */
  public _provider(): TerraformProvider {
    const { baseUrl, tokenEnvVar, allowInsecureHttp, changedSincePlan } = this;
    const config = { baseUrl, tokenEnvVar, allowInsecureHttp, changedSincePlan };
    return hostingProvider(this, config, this.standaloneProvider);
  }

  /**
   * The connection part of every resource document.
   * @internal
   */
  public _connection(): ApiConnection {
    return { baseUrl: this.baseUrl, tokenEnvVar: this.tokenEnvVar, ...(this.allowInsecureHttp ? { allowInsecureHttp: true } : {}) };
  }
}

function checkBaseUrl(scope: Construct, baseUrl: string, allowInsecureHttp: boolean): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ValidationError(scope, 'baseUrl', `"${printableUrl(baseUrl)}" is not an absolute URL (expected e.g. https://api.example.com/api/v1)`);
  }
  if (url.username || url.password) {
    throw new ValidationError(scope, 'baseUrl', `must not contain credentials; the token comes from the environment variable named by ${inReaderWords('tokenEnvVar')}`);
  }
  if (!/^https?:$/.test(url.protocol) || !url.pathname.replace(/\/+$/, '').endsWith('/api/v1') || url.search || url.hash) {
    throw new ValidationError(scope, 'baseUrl', `"${printableUrl(baseUrl)}" must be an http(s) URL whose path ends in /api/v1, without query or fragment`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !allowInsecureHttp) {
    throw new ValidationError(scope, 'baseUrl', `"${printableUrl(baseUrl)}" uses plain http to another machine, which would send the token in clear text; use https (or set ${inReaderWords('allowInsecureHttp')} to true if the path is protected otherwise)`);
  }
}

/** The mirror must hold this package's version: found now, the error names the construct instead of failing synth later. */
function checkStandaloneProvider(scope: Construct, dir: string, bridge: Bridge): string {
  if (bridge !== Bridge.PROVIDER) {
    throw new ValidationError(scope, 'standaloneProvider', `is set with ${inReaderWords('bridge')} ${bridge}: the bridges run the handler with node, so only Bridge.PROVIDER can use the standalone provider`);
  }
  const root = resolve(dir);
  const version = providerVersion(readProviderBundle());
  if (standaloneMirrorPlatforms(root, version).length === 0) {
    throw new ValidationError(scope, 'standaloneProvider', `"${dir}" holds no standalone provider ${version} (looked in ${root}); ${STANDALONE_MIRROR_HINT}`);
  }
  return root;
}

/** One copy of the handler per stack, however many constructs use it. */
function handlerAsset(stack: TerraformStack): TerraformAsset {
  const existing = stack.node.tryFindChild(HANDLER_ASSET_ID);
  if (existing) return existing as TerraformAsset;
  if (!existsSync(HANDLER_BUNDLE_PATH)) {
    throw new Error(`The handler bundle is missing at ${HANDLER_BUNDLE_PATH}; build it with "npx projen bundle:handler" (installed packages ship it)`);
  }
  return new TerraformAsset(stack, HANDLER_ASSET_ID, { path: HANDLER_BUNDLE_PATH, type: AssetType.FILE });
}
