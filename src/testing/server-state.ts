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

/** Both protection layers of an address, as the API sets them together. */
export interface SimulatedProtection {
  /** `dynamic` or `permanent`. */
  readonly layer4: string;
  /** `off`, `permanent` or `only`. */
  readonly layer7: string;
}

/** A change of a firewall, as the control surface takes it (`{"firewall": {"enabled": false}}`). */
export interface SimulatedFirewallChange {
  readonly enabled?: boolean;
  readonly rulesets?: number[];
}

/** A change of one address's settings, as the control surface takes it (`{"ip": {"address": "…", "rdns": "…"}}`). */
export interface SimulatedIpChange {
  readonly address: string;
  readonly rdns?: string;
  readonly description?: string;
  readonly protection?: SimulatedProtection;
}

/**
 * An out-of-band change of one server, as its control panel would make it: the control surface's
 * shape (`{ firewall: { enabled: false } }`, `{ ip: { address, rdns } }`), or the flat members of
 * earlier releases (`firewallEnabled`, `ip` with `rdns` beside it), not both for one thing.
 */
export interface ServerChange {
  /** `running`, `stopped` or `unknown`. */
  readonly power?: string;
  /** A server status, e.g. `suspended`. */
  readonly status?: string;
  /** The firewall's change, as the control surface takes it. */
  readonly firewall?: SimulatedFirewallChange;
  /** The flat form of `firewall.enabled`. */
  readonly firewallEnabled?: boolean;
  /** The flat form of `firewall.rulesets`. */
  readonly firewallRulesets?: number[];
  /**
   * The address's change as the control surface takes it, or (the flat form) the address whose
   * settings `rdns`, `description` or the protection layers beside it change.
   */
  readonly ip?: string | SimulatedIpChange;
  readonly rdns?: string;
  readonly description?: string;
  /** Both layers together, as the API sets them. */
  readonly layer4?: string;
  readonly layer7?: string;
}
