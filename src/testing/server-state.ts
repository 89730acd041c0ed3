/** A VPS or VDS firewall as the simulated account holds it. */
export interface SimulatedFirewall {
  readonly enabled: boolean;
  readonly rulesets: number[];
}

/** One address of a dedicated server as the simulated account holds it. */
export interface SimulatedIpSettings {
  readonly address: string;
  readonly rdns?: string;
  readonly description?: string;
  /** `dynamic` or `permanent`, or undefined when the address has no protection. */
  readonly layer4?: string;
  /** `off`, `permanent` or `only`, or undefined when the address has no protection. */
  readonly layer7?: string;
}

/** A server of the simulated account as it is now. */
export interface SimulatedServer {
  readonly id: string;
  /** `vps`, `vds` or `dedicated`. */
  readonly type: string;
  readonly name: string;
  /** `active`, `provisioning`, `building`, `suspended`, `failed` or `terminated`. */
  readonly status: string;
  /** `running`, `stopped` or `unknown`. */
  readonly power: string;
  /** `primary`, or `secondary` for a server shared with the account. */
  readonly accessRole: string;
  /** Starts, reboots and resets that took effect since the account started. */
  readonly bootCount: number;
  /** VPS and VDS only. */
  readonly firewall?: SimulatedFirewall;
  /** Dedicated servers only; empty for the others. */
  readonly ipSettings: SimulatedIpSettings[];
}

/** An out-of-band change of one server, as its control panel would make it. */
export interface ServerChange {
  /** `running`, `stopped` or `unknown`. */
  readonly power?: string;
  /** A server status, e.g. `suspended`. */
  readonly status?: string;
  readonly firewallEnabled?: boolean;
  readonly firewallRulesets?: number[];
  /** The address whose settings change: set it with `rdns`, `description` or the protection layers. */
  readonly ip?: string;
  readonly rdns?: string;
  readonly description?: string;
  /** Both layers together, as the API sets them. */
  readonly layer4?: string;
  readonly layer7?: string;
}
