import { Construct } from 'constructs';
import type { Bridge } from './bridge';
import { Fn, Token, type IResolvable, type ITerraformDependable, type TerraformResource } from './cdk';
import { ChangedSincePlan, FAIL_SINCE_PLAN_NEEDS_PROVIDER } from './changed-since-plan';
import { createConstructResource } from './construct-resource';
import type { HostingApi } from './hosting-api';
import { asDocumentBoolean, asText, checkOneInstanceRead, checkSingleInstance, isRepeated, metaArgumentsOf, type HostingMetaArguments, type WithServerIdText } from './meta-arguments';
import { moveFromBridge, type MovedFromBridgeProps } from './moved-from-bridge';
import { OnDestroy } from './on-destroy';
import { checkOneOf, checkProviderBridge, checkRulesetIds, checkRulesetNames, checkServerId, checkSomethingManaged, IMPORT_NEEDS_PROVIDER, READ_NEEDS_PROVIDER, RESTORE_NEEDS_PROVIDER } from './validation';
import { DOCUMENT_VERSION, type DocumentOf, type FirewallSpec } from '../contract/resource-document';

export interface ServerFirewallProps extends HostingMetaArguments, MovedFromBridgeProps {
  /** The API connection. */
  readonly api: HostingApi;
  /** A VPS id (`vps_…`), as listed by GET /servers. */
  readonly serverId: string | IResolvable;
  /**
   * Whether the firewall is on.
   * @default - not managed
   */
  readonly enabled?: boolean | IResolvable;
  /**
   * Ids of the rule sets to apply (GET /firewall/rulesets). Compared as a set: order does not matter.
   * Numbers only: rule sets by name go in `rulesetNames` (`ruleset_names` in Python), and a list of
   * names here fails the type check (in Python, jsii's TypeError, which does not name that prop).
   * @default - not managed, unless rulesetNames is set
   */
  readonly rulesets?: number[];
  /**
   * Names of rule sets to apply, resolved to ids at apply time; combined with `rulesets`.
   * @default - none
   */
  readonly rulesetNames?: string[];
  /**
   * What removing this construct does to the firewall.
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
const withText = (props: ServerFirewallProps): WithServerIdText<ServerFirewallProps> => ({
  ...props, serverId: asText(props.serverId), rulesetNames: props.rulesetNames?.map((name) => asText(name)),
});

/**
 * The bridge document's rule sets: ids and names in one list. A list known only at plan is one
 * token, which cannot be spread into another list; Terraform joins them at plan instead, with
 * `flatten` (`concat` would turn the ids into strings, which the handler reads as names).
 */
function desiredRulesets(ids?: number[], names?: string[]): Array<number | string> | undefined {
  if (ids === undefined && names === undefined) return undefined;
  const lists: Array<Array<number | string>> = [ids ?? [], names ?? []];
  if (lists.some((list) => Token.isUnresolved(list))) return Token.asList(Fn.flatten(lists));
  return lists.flat();
}

/**
 * The firewall of one VPS: on or off, and which rule sets apply. Only the members set here are
 * managed. Needs a token with `network:read` and `network:write`.
 */
export class ServerFirewall extends Construct implements ITerraformDependable {
  /**
   * The provider's resource type (`hosting_server_firewall`), as cdktf's generated classes name theirs, for cdktf's
   * matchers: `Testing.toHaveResourceWithProperties(synthesized, ServerFirewall.tfResourceType, { … })`, or
   * `expect(synthesized).toHaveResourceWithProperties(ServerFirewall, { … })` after `Testing.setupJest()`.
   */
  public static readonly tfResourceType = 'hosting_server_firewall';

  /** The `hosting_server_firewall` resource, or the bridge resource that runs the handler. */
  public readonly resource: TerraformResource;
  readonly #bridge: Bridge;
  readonly #repeated: boolean;
  readonly #serverId: string;

  constructor(scope: Construct, id: string, input: ServerFirewallProps) {
    super(scope, id);
    const props = withText(input);
    checkServerId(this, props.serverId, 'vps');
    checkRulesetIds(this, props.rulesets);
    checkRulesetNames(this, props.rulesetNames);
    checkSomethingManaged(this, { enabled: props.enabled, rulesets: props.rulesets, rulesetNames: props.rulesetNames });
    checkOneOf(this, 'onDestroy', props.onDestroy, Object.values(OnDestroy));
    checkOneOf(this, 'changedSincePlan', props.changedSincePlan, Object.values(ChangedSincePlan));
    if (props.changedSincePlan === ChangedSincePlan.FAIL) checkProviderBridge(this, props.api.bridge, 'changedSincePlan', FAIL_SINCE_PLAN_NEEDS_PROVIDER);
    if (props.onDestroy === OnDestroy.RESTORE) checkProviderBridge(this, props.api.bridge, 'onDestroy', RESTORE_NEEDS_PROVIDER);
    this.#bridge = props.api.bridge;
    this.#repeated = isRepeated(props);
    const document: DocumentOf<FirewallSpec> = {
      version: DOCUMENT_VERSION,
      kind: 'firewall',
      serverId: props.serverId,
      api: props.api._connection(),
      desired: {
        enabled: asDocumentBoolean(props.enabled),
        rulesets: desiredRulesets(props.rulesets, props.rulesetNames),
      },
    };
    this.#serverId = props.serverId;
    this.resource = createConstructResource(this, {
      api: props.api,
      type: 'hosting_server_firewall',
      attributes: {
        server_id: props.serverId,
        enabled: props.enabled,
        rulesets: props.rulesets,
        ruleset_names: props.rulesetNames,
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

  /** The resource's address, so `dependsOn` on this construct works. */
  public get fqn(): string {
    return this.resource.fqn;
  }

  /** The ids of the rule sets that apply on the server, as the provider read them. Bridge.PROVIDER only. */
  public get appliedRulesets(): number[] {
    checkProviderBridge(this, this.#bridge, 'appliedRulesets', READ_NEEDS_PROVIDER);
    checkOneInstanceRead(this, this.#repeated, 'appliedRulesets', 'applied_rulesets');
    return this.resource.getNumberListAttribute('applied_rulesets');
  }

  /** Whether the firewall is on, as the provider read it. Bridge.PROVIDER only. */
  public get firewallEnabled(): IResolvable {
    checkProviderBridge(this, this.#bridge, 'firewallEnabled', READ_NEEDS_PROVIDER);
    checkOneInstanceRead(this, this.#repeated, 'firewallEnabled', 'enabled');
    return this.resource.getBooleanAttribute('enabled');
  }

  /**
   * Adopts the firewall as it is: the next plan imports it (a Terraform `import` block) and shows
   * the in-place changes from the actual values instead of a create. Bridge.PROVIDER only.
   */
  public importExisting(): void {
    checkProviderBridge(this, this.#bridge, 'importExisting()', IMPORT_NEEDS_PROVIDER);
    checkSingleInstance(this, this.#repeated);
    this.resource.importFrom(this.#serverId);
  }
}
