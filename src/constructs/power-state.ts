import { Construct } from 'constructs';
import { Bridge } from './bridge';
import { createArmedRecord, createBridgeResource, createRebootResource } from './bridge-resource';
import type { ITerraformDependable, TerraformResource, IResolvable } from './cdk';
import type { HostingApi } from './hosting-api';
import { asDocumentBoolean, asText, checkOneInstanceRead, checkSingleInstance, isRepeated, metaArgumentsOf, type HostingMetaArguments, type WithServerIdText } from './meta-arguments';
import { moveFromBridge, type MovedFromBridgeProps } from './moved-from-bridge';
import { HostingProviderResource } from './provider-package';
import { checkOneOf, checkTimeoutSeconds, checkProviderBridge, checkServerId, IMPORT_NEEDS_PROVIDER, READ_NEEDS_PROVIDER, ValidationError } from './validation';
import { DOCUMENT_VERSION, type DocumentOf, POWER_DEFAULTS, type PowerStateSpec, type PowerTimeouts, type RebootSpec } from '../contract/resource-document';

/** The power state to converge to. */
export enum PowerStateValue {
  RUNNING = 'running',
  STOPPED = 'stopped',
}

/** How a running server is stopped. */
export enum StopMethod {
  /** Ask the operating system (`shutdown`); needs `servers:control`. */
  SHUTDOWN = 'shutdown',
  /** Cut the power at once (`power_off`); needs `servers:control`. */
  POWER_OFF = 'power_off',
}

export interface PowerStateProps extends HostingMetaArguments, MovedFromBridgeProps {
  /** The API connection. */
  readonly api: HostingApi;
  /** The server id (`vps_…` or `ded_…`). */
  readonly serverId: string | IResolvable;
  /** Running or stopped. */
  readonly state: PowerStateValue;
  /**
   * How to stop a running server.
   * @default StopMethod.SHUTDOWN
   */
  readonly stopMethod?: StopMethod;
  /**
   * Cut the power (`power_off`) when a graceful shutdown fails.
   * @default false
   */
  readonly forceStopFallback?: boolean | IResolvable;
  /**
   * Values whose change reboots the server once (e.g. an image version). Only a change of a value
   * that was already applied reboots: creating, importing or replacing the construct never does
   * (the plan says so), nor does an apply after a first apply that failed, nor a change of any
   * other prop. A stopped server is not rebooted.
   * @default - never reboot
   */
  readonly rebootTriggers?: { [key: string]: string };
  /**
   * Reboot by `reset` (hardware, needs `servers:control`) instead of `reboot` (operating system).
   * Needs `rebootTriggers`. Changing it alone does not reboot.
   * @default false
   */
  readonly hardReboot?: boolean | IResolvable;
  /**
   * How long to wait for a server that is provisioning, whose power is unknown, or that has an
   * operation in progress, in seconds: more than 0, at most 86,400 (a day).
   * @default 600
   */
  readonly readyTimeoutSeconds?: number;
  /**
   * How long one power operation may take, in seconds: more than 0, at most 86,400 (a day).
   * @default 600
   */
  readonly operationTimeoutSeconds?: number;
  /**
   * Set once the team has reviewed that creating this construct changes settings that exist
   * already: the plan then does not warn of it (the warning comes from the provider; the bridges
   * never warn). A value someone changes after the plan is still named at apply.
   * @default false
   */
  readonly expectTakeover?: boolean | IResolvable;
}

/** The props with every string an iterator value or other resolvable may stand for as a token string. */
const withText = (props: PowerStateProps): WithServerIdText<PowerStateProps> => ({ ...props, serverId: asText(props.serverId) });

/**
 * Keeps a server running or stopped, and reboots it once whenever `rebootTriggers` change. Needs
 * `servers:read` and `servers:power`, plus `servers:control` to stop or hard-reset.
 */
export class PowerState extends Construct implements ITerraformDependable {
  /**
   * The provider's resource type (`hosting_power_state`), as cdktf's generated classes name theirs, for cdktf's
   * matchers: `Testing.toHaveResourceWithProperties(synthesized, PowerState.tfResourceType, { … })`, or
   * `expect(synthesized).toHaveResourceWithProperties(PowerState, { … })` after `Testing.setupJest()`.
   */
  public static readonly tfResourceType = 'hosting_power_state';

  /** The `hosting_power_state` resource, or the bridge resource that converges the power state. */
  public readonly resource: TerraformResource;
  /** With a bridge: the bridge resource that reboots on trigger changes, when `rebootTriggers` is set. */
  public readonly rebootResource?: TerraformResource;
  readonly #bridge: Bridge;
  readonly #repeated: boolean;
  readonly #serverId: string;

  constructor(scope: Construct, id: string, input: PowerStateProps) {
    super(scope, id);
    const props = withText(input);
    checkServerId(this, props.serverId);
    checkOneOf(this, 'state', props.state, Object.values(PowerStateValue));
    checkOneOf(this, 'stopMethod', props.stopMethod, Object.values(StopMethod));
    checkTimeoutSeconds(this, 'readyTimeoutSeconds', props.readyTimeoutSeconds);
    checkTimeoutSeconds(this, 'operationTimeoutSeconds', props.operationTimeoutSeconds);
    if (props.hardReboot === true && !props.rebootTriggers) {
      throw new ValidationError(this, 'hardReboot', 'is true but rebootTriggers is not set, so there is never a reboot for it to change; set rebootTriggers or remove hardReboot');
    }
    this.#bridge = props.api.bridge;
    this.#repeated = isRepeated(props);
    this.#serverId = props.serverId;
    const meta = metaArgumentsOf(this, props, props.api.bridge);
    if (props.api.bridge === Bridge.PROVIDER) {
      // One resource: the provider tells a change of the triggers from a create, so no reboot resource.
      this.resource = new HostingProviderResource(this, 'resource', 'hosting_power_state', {
        server_id: props.serverId,
        state: props.state,
        stop_method: props.stopMethod,
        force_stop_fallback: props.forceStopFallback,
        reboot_triggers: props.rebootTriggers,
        hard_reboot: props.hardReboot,
        ready_timeout_seconds: props.readyTimeoutSeconds,
        operation_timeout_seconds: props.operationTimeoutSeconds,
        expect_takeover: props.expectTakeover,
      }, props.api._provider(), meta);
      moveFromBridge(this, this.resource, props.api, props.movedFromBridge, this.#repeated, { moved: 'bridge', forgotten: ['reboot', 'reboot-armed'] });
      return;
    }
    const api = props.api._connection();
    const timeouts: PowerTimeouts = {
      readySeconds: props.readyTimeoutSeconds ?? POWER_DEFAULTS.readySeconds,
      operationSeconds: props.operationTimeoutSeconds ?? POWER_DEFAULTS.operationSeconds,
    };
    const document: DocumentOf<PowerStateSpec> = {
      version: DOCUMENT_VERSION,
      kind: 'power_state',
      serverId: props.serverId,
      api,
      desired: { state: props.state },
      stopMethod: props.stopMethod ?? POWER_DEFAULTS.stopMethod,
      forceStopFallback: asDocumentBoolean(props.forceStopFallback) ?? POWER_DEFAULTS.forceStopFallback,
      timeouts,
    };
    this.resource = createBridgeResource(this, 'bridge', { api: props.api, document, dependsOn: meta.dependsOn });
    moveFromBridge(this, this.resource, props.api, props.movedFromBridge, this.#repeated, { moved: 'bridge' });

    if (props.rebootTriggers) {
      // A separate resource, replaced only when the triggers change: nothing else ever reboots.
      const reboot: DocumentOf<RebootSpec> = { version: DOCUMENT_VERSION, kind: 'reboot', serverId: props.serverId, api, hard: asDocumentBoolean(props.hardReboot) ?? POWER_DEFAULTS.hardReboot, timeouts };
      this.rebootResource = createRebootResource(this, 'reboot', {
        api: props.api,
        document: reboot,
        triggers: props.rebootTriggers,
        armedAt: createArmedRecord(this, 'reboot-armed', props.api.bridge, this.resource),
        dependsOn: [this.resource],
      });
    }
  }

  /** The server id, for other resources to reference. One instance's only: refused with forEach or count. */
  public get serverId(): string {
    checkOneInstanceRead(this, this.#repeated, 'serverId', 'server_id');
    return this.#serverId;
  }

  /** The address of the last resource, so `dependsOn` on this construct waits for power and reboot. */
  public get fqn(): string {
    return (this.rebootResource ?? this.resource).fqn;
  }

  /** The server's power (`running`, `stopped` or `unknown`), as the provider read it. Bridge.PROVIDER only. */
  public get power(): string {
    checkProviderBridge(this, this.#bridge, 'power', READ_NEEDS_PROVIDER);
    checkOneInstanceRead(this, this.#repeated, 'power', 'state');
    return this.resource.getStringAttribute('state');
  }

  /**
   * Adopts the server's power as it is: the next plan imports it (a Terraform `import` block) and
   * shows the in-place change, if any, instead of a create. Importing never reboots. Bridge.PROVIDER only.
   */
  public importExisting(): void {
    checkProviderBridge(this, this.#bridge, 'importExisting()', IMPORT_NEEDS_PROVIDER);
    checkSingleInstance(this, this.#repeated);
    this.resource.importFrom(this.#serverId);
  }
}
