/*
 * The contract between the constructs (which write it into the bridge resource at synth time), the
 * handler (which validates and acts on it at apply time) and the provider (whose attributes become
 * the same specs). Plain types only: the constructs layer
 * does no I/O and pulls in no runtime dependency.
 */

/** Environment variables the bridge sets for the handler. */
export const HANDLER_ENV = {
  /** The resource document, JSON. */
  document: 'HOSTING_RESOURCE',
  /** Terraform's id of the bridge resource instance: new on every replacement. */
  instanceId: 'HOSTING_INSTANCE_ID',
  /** `plantimestamp()` recorded when the construct was first applied (reboot resources only). */
  firstPlannedAt: 'HOSTING_FIRST_PLANNED_AT',
  /** `plantimestamp()` of the current apply (reboot resources only). */
  plannedAt: 'HOSTING_PLANNED_AT',
  /** Default base URL when the document names none. */
  defaultBaseUrl: 'HOSTING_API_URL',
  /** Set to 1 to print every HTTP attempt. */
  debug: 'HOSTING_DEBUG',
  /** `off` turns TCP keep-alive probes off on the API's connections (Wine's sockets refuse the option); `on` (the default) keeps them. */
  tcpKeepAlive: 'HOSTING_API_TCP_KEEPALIVE',
} as const;

export const DOCUMENT_VERSION = 1;

export interface ApiConnection {
  /** Ends in /api/v1; when absent the handler reads HOSTING_API_URL. */
  readonly baseUrl?: string;
  /** The NAME of the environment variable holding the token, never the token. */
  readonly tokenEnvVar: string;
  /** Plain http to a host other than this machine; absent means refused. */
  readonly allowInsecureHttp?: boolean;
}

/** What every kind's spec has: the server it acts on. */
export interface ResourceSpecBase {
  readonly serverId: string;
}

export interface FirewallSpec extends ResourceSpecBase {
  readonly kind: 'firewall';
  /** Only members that are set are managed. Rule sets by id (number) or name (string). */
  readonly desired: { readonly enabled?: boolean; readonly rulesets?: ReadonlyArray<number | string> };
}

export interface IpSettingsSpec extends ResourceSpecBase {
  readonly kind: 'ip_settings';
  readonly ip: string;
  readonly desired: {
    readonly rdns?: string;
    readonly description?: string;
    readonly protection?: { readonly layer4: 'dynamic' | 'permanent'; readonly layer7: 'off' | 'permanent' | 'only' };
  };
}

export interface PowerTimeouts {
  /** How long to wait for a provisioning/building server, an unknown power state or an operation in progress. */
  readonly readySeconds: number;
  /** How long one power operation may take to reach a final status. */
  readonly operationSeconds: number;
}

/** PowerState's defaults, for the constructs and the provider alike (a prop or attribute left unset). */
export const POWER_DEFAULTS = {
  stopMethod: 'shutdown',
  forceStopFallback: false,
  hardReboot: false,
  readySeconds: 600,
  operationSeconds: 600,
} as const;

/**
 * The longest wait a timeout may ask for: a day. No power operation the API runs takes longer, and
 * a larger figure is a slip (milliseconds written as seconds) that would hold a pipeline for good.
 */
export const MAX_TIMEOUT_SECONDS = 86_400;

export interface PowerStateSpec extends ResourceSpecBase {
  readonly kind: 'power_state';
  readonly desired: { readonly state: 'running' | 'stopped' };
  readonly stopMethod: 'shutdown' | 'power_off';
  /** After a failed graceful shutdown, force the power off. */
  readonly forceStopFallback: boolean;
  readonly timeouts: PowerTimeouts;
}

export interface RebootSpec extends ResourceSpecBase {
  readonly kind: 'reboot';
  /** `reset` instead of `reboot`. */
  readonly hard: boolean;
  readonly timeouts: PowerTimeouts;
}

/** What one resource wants of the API, whoever carries it: the provider's attributes or a bridge's document. */
export type ResourceSpec = FirewallSpec | IpSettingsSpec | PowerStateSpec | RebootSpec;
export type ResourceKind = ResourceSpec['kind'];

/** What a bridge resource hands the handler: a spec, and how to reach the API (the provider's configuration holds that part). */
export type DocumentOf<S extends ResourceSpec> = S & {
  readonly version: typeof DOCUMENT_VERSION;
  readonly api: ApiConnection;
};
export type ResourceDocument = DocumentOf<ResourceSpec>;
