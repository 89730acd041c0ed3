import { Construct } from 'constructs';
import type { Bridge } from './bridge';
import { Fn, type ITerraformDependable, type TerraformResource, type IResolvable } from './cdk';
import { ChangedSincePlan, FAIL_SINCE_PLAN_NEEDS_PROVIDER } from './changed-since-plan';
import { createConstructResource } from './construct-resource';
import type { HostingApi } from './hosting-api';
import { asText, checkOneInstanceRead, checkSingleInstance, isRepeated, metaArgumentsOf, type HostingMetaArguments, type WithServerIdText } from './meta-arguments';
import { moveFromBridge, type MovedFromBridgeProps } from './moved-from-bridge';
import { OnDestroy } from './on-destroy';
import { checkFitsOneRequest, checkIpv4, checkRdns, checkOneOf, checkProviderBridge, checkServerId, checkSomethingManaged, IMPORT_NEEDS_PROVIDER, READ_NEEDS_PROVIDER, RESTORE_NEEDS_PROVIDER } from './validation';
import { DOCUMENT_VERSION, type DocumentOf, type IpSettingsSpec } from '../contract/resource-document';

/** DDoS protection at layer 4. */
export enum Layer4Protection {
  /** Filters only while an attack is under way. */
  DYNAMIC = 'dynamic',
  /** Filters all the time. */
  PERMANENT = 'permanent',
}

/** DDoS protection at layer 7. */
export enum Layer7Protection {
  OFF = 'off',
  /** Filters all the time. */
  PERMANENT = 'permanent',
  /** Filters web traffic only. */
  ONLY = 'only',
}

/** Both layers of an address's DDoS protection; the API sets them together. */
export interface IpProtection {
  readonly layer4: Layer4Protection;
  readonly layer7: Layer7Protection;
}

export interface IpSettingsProps extends HostingMetaArguments, MovedFromBridgeProps {
  /** The API connection. */
  readonly api: HostingApi;
  /** A dedicated server id (`ded_…`). */
  readonly serverId: string | IResolvable;
  /** One IPv4 address assigned to the server. */
  readonly ip: string;
  /**
   * Reverse DNS name. Compared case-insensitively, ignoring a trailing dot.
   * @default - not managed
   */
  readonly rdns?: string;
  /**
   * Description of the address.
   * @default - not managed
   */
  readonly description?: string;
  /**
   * DDoS protection mode, both layers.
   * @default - not managed
   */
  readonly protection?: IpProtection;
  /**
   * What removing this construct does to the address's settings. RESTORE cannot clear a field
   * that was empty before (the API has no way to): such a field keeps its value, and the plan of the removal says so.
   * @default OnDestroy.RETAIN
   */
  readonly onDestroy?: OnDestroy;
  /**
   * Set once the team has reviewed that creating this construct changes settings that exist
   * already: the plan then does not warn of it (the warning comes from the provider; the bridges
   * never warn). A value someone changes after the plan is still named at apply.
   * @default false
   */
  readonly expectTakeover?: boolean | IResolvable;
  /**
   * What an apply does with a value of this construct someone changed on the server after the plan
   * read it; overrides the HostingApi's `changedSincePlan`.
   * @default - the HostingApi's `changedSincePlan`
   */
  readonly changedSincePlan?: ChangedSincePlan;
}

/** The props with every string an iterator value or other resolvable may stand for as a token string. */
const withText = (props: IpSettingsProps): WithServerIdText<IpSettingsProps> => ({
  ...props, serverId: asText(props.serverId), ip: asText(props.ip), rdns: asText(props.rdns), description: asText(props.description),
});

/**
 * Reverse DNS, description and DDoS protection of one IPv4 address of a dedicated server. Only the
 * fields set here are managed; each changed field is one write. Needs `network:read` and
 * `network:write`.
 */
export class IpSettings extends Construct implements ITerraformDependable {
  /**
   * The provider's resource type (`hosting_ip_settings`), as cdktf's generated classes name theirs, for cdktf's
   * matchers: `Testing.toHaveResourceWithProperties(synthesized, IpSettings.tfResourceType, { … })`, or
   * `expect(synthesized).toHaveResourceWithProperties(IpSettings, { … })` after `Testing.setupJest()`.
   */
  public static readonly tfResourceType = 'hosting_ip_settings';

  /** The `hosting_ip_settings` resource, or the bridge resource that runs the handler. */
  public readonly resource: TerraformResource;
  readonly #bridge: Bridge;
  readonly #repeated: boolean;
  readonly #serverId: string;
  readonly #ip: string;

  constructor(scope: Construct, id: string, input: IpSettingsProps) {
    super(scope, id);
    const props = withText(input);
    checkServerId(this, props.serverId, 'ded');
    checkIpv4(this, props.ip);
    checkRdns(this, props.rdns);
    checkFitsOneRequest(this, 'description', props.description);
    checkOneOf(this, 'protection.layer4', props.protection?.layer4, Object.values(Layer4Protection));
    checkOneOf(this, 'protection.layer7', props.protection?.layer7, Object.values(Layer7Protection));
    checkSomethingManaged(this, { rdns: props.rdns, description: props.description, protection: props.protection });
    checkOneOf(this, 'onDestroy', props.onDestroy, Object.values(OnDestroy));
    checkOneOf(this, 'changedSincePlan', props.changedSincePlan, Object.values(ChangedSincePlan));
    if (props.changedSincePlan === ChangedSincePlan.FAIL) checkProviderBridge(this, props.api.bridge, 'changedSincePlan', FAIL_SINCE_PLAN_NEEDS_PROVIDER);
    if (props.onDestroy === OnDestroy.RESTORE) checkProviderBridge(this, props.api.bridge, 'onDestroy', RESTORE_NEEDS_PROVIDER);
    this.#bridge = props.api.bridge;
    this.#repeated = isRepeated(props);
    const protection = props.protection && { layer4: props.protection.layer4, layer7: props.protection.layer7 };
    const document: DocumentOf<IpSettingsSpec> = {
      version: DOCUMENT_VERSION,
      kind: 'ip_settings',
      serverId: props.serverId,
      ip: props.ip,
      api: props.api._connection(),
      desired: {
        rdns: props.rdns,
        description: props.description,
        protection,
      },
    };
    this.#serverId = props.serverId;
    this.#ip = props.ip;
    this.resource = createConstructResource(this, {
      api: props.api,
      type: 'hosting_ip_settings',
      attributes: {
        server_id: props.serverId,
        ip: props.ip,
        rdns: props.rdns,
        description: props.description,
        protection,
        on_destroy: props.onDestroy,
        expect_takeover: props.expectTakeover,
        changed_since_plan: props.changedSincePlan,
      },
      document,
      meta: metaArgumentsOf(this, props, props.api.bridge),
    });
    moveFromBridge(this, this.resource, props.api, props.movedFromBridge, this.#repeated, { moved: 'bridge' });
  }

  /** The server id, for other resources to reference. One instance's only: refused with forEach or count. */
  public get serverId(): string {
    checkOneInstanceRead(this, this.#repeated, 'serverId', 'server_id');
    return this.#serverId;
  }

  /** The address, for other resources to reference. One instance's only: refused with forEach or count. */
  public get ip(): string {
    checkOneInstanceRead(this, this.#repeated, 'ip', 'ip');
    return this.#ip;
  }

  /** The resource's address, so `dependsOn` on this construct works. */
  public get fqn(): string {
    return this.resource.fqn;
  }

  /** The address's reverse DNS name, as the provider read it. Bridge.PROVIDER only. */
  public get rdns(): string {
    checkProviderBridge(this, this.#bridge, 'rdns', READ_NEEDS_PROVIDER);
    checkOneInstanceRead(this, this.#repeated, 'rdns', 'rdns');
    return this.resource.getStringAttribute('rdns');
  }

  /** The address's description, as the provider read it. Bridge.PROVIDER only. */
  public get description(): string {
    checkProviderBridge(this, this.#bridge, 'description', READ_NEEDS_PROVIDER);
    checkOneInstanceRead(this, this.#repeated, 'description', 'description');
    return this.resource.getStringAttribute('description');
  }

  /** The layer 4 DDoS protection mode (`dynamic` or `permanent`), as the provider read it. Bridge.PROVIDER only. */
  public get protectionLayer4(): string {
    checkProviderBridge(this, this.#bridge, 'protectionLayer4', READ_NEEDS_PROVIDER);
    checkOneInstanceRead(this, this.#repeated, 'protectionLayer4', 'protection.layer4');
    return Fn.lookup(this.resource.interpolationForAttribute('protection'), 'layer4', '');
  }

  /** The layer 7 DDoS protection mode (`off`, `permanent` or `only`), as the provider read it. Bridge.PROVIDER only. */
  public get protectionLayer7(): string {
    checkProviderBridge(this, this.#bridge, 'protectionLayer7', READ_NEEDS_PROVIDER);
    checkOneInstanceRead(this, this.#repeated, 'protectionLayer7', 'protection.layer7');
    return Fn.lookup(this.resource.interpolationForAttribute('protection'), 'layer7', '');
  }

  /**
   * Adopts the address's settings as they are: the next plan imports them (a Terraform `import`
   * block, id `<server id>/<address>`) and shows the in-place changes from the actual values
   * instead of a create. Bridge.PROVIDER only.
   */
  public importExisting(): void {
    checkProviderBridge(this, this.#bridge, 'importExisting()', IMPORT_NEEDS_PROVIDER);
    checkSingleInstance(this, this.#repeated);
    this.resource.importFrom(`${this.#serverId}/${this.#ip}`);
  }
}
