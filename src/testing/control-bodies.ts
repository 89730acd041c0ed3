import { FaultEffect, type Fault } from './fault';
import type { ServerChange, SimulatedServer } from './server-state';

/*
 * The testing kit's structs as the simulator's control surface speaks them, and back. The
 * simulator checks every body strictly and names what is wrong; these add what a flat struct
 * cannot say by its shape.
 */

/** The members each effect takes besides the matching ones. */
const EFFECT_MEMBERS: Record<FaultEffect, ReadonlyArray<keyof Fault>> = {
  [FaultEffect.ERROR]: ['status', 'code', 'retryAfterSeconds', 'takesEffect'],
  [FaultEffect.LATENCY]: ['latencyMs'],
  [FaultEffect.DROP_RESPONSE]: [],
  [FaultEffect.OPERATION]: ['operationStatus', 'operationMessage', 'takesEffect'],
  [FaultEffect.STALE]: [],
  [FaultEffect.CACHE]: ['maxAgeSeconds'],
};
const EVERY_EFFECT_MEMBER = [...new Set(Object.values(EFFECT_MEMBERS).flat())];

/** The control surface's fault body; the simulator checks it strictly and names what is wrong. */
export function faultBody(fault: Fault): object {
  const foreign = EVERY_EFFECT_MEMBER.filter((m) => fault[m] !== undefined && !EFFECT_MEMBERS[fault.effect].includes(m));
  if (foreign.length) throw new Error(`a ${fault.effect} fault takes no ${foreign.join(', ')} (it takes ${EFFECT_MEMBERS[fault.effect].join(', ') || 'no effect members'})`);
  const { effect, endpoint, serverId, times, skip, probability, status, code, retryAfterSeconds, takesEffect } = fault;
  const { latencyMs, operationStatus, operationMessage, maxAgeSeconds } = fault;
  const effects: Record<FaultEffect, object> = {
    [FaultEffect.ERROR]: { type: effect, status, code, retryAfterSeconds, takesEffect },
    [FaultEffect.LATENCY]: { type: effect, ms: latencyMs },
    [FaultEffect.DROP_RESPONSE]: { type: effect },
    [FaultEffect.OPERATION]: { type: effect, outcome: { status: operationStatus, takesEffect: takesEffect ?? operationStatus === 'succeeded', message: operationMessage } },
    [FaultEffect.STALE]: { type: effect },
    [FaultEffect.CACHE]: { type: effect, maxAgeSeconds },
  };
  return { endpoint, serverId, times, skip, probability, effect: effects[effect] };
}

interface Snapshot {
  server: { id: string; type: string; name: string; status: string; power: string; accessRole: string };
  firewall?: { enabled: boolean; rulesets: number[] };
  ipSettings: Array<{ address: string; rdns: string | null; description: string | null; protection: { layer4: string; layer7: string } | null }>;
  bootCount: number;
}

/** A server of the control surface's `/state`, as the struct a test reads. */
export function simulatedServer(value: unknown): SimulatedServer {
  const { server, firewall, ipSettings, bootCount } = value as Snapshot;
  return {
    id: server.id,
    type: server.type,
    name: server.name,
    status: server.status,
    power: server.power,
    accessRole: server.accessRole,
    bootCount,
    ...(firewall ? { firewall: { enabled: firewall.enabled, rulesets: firewall.rulesets } } : {}),
    ipSettings: ipSettings.map((ip) => ({
      address: ip.address,
      ...(ip.rdns === null ? {} : { rdns: ip.rdns }),
      ...(ip.description === null ? {} : { description: ip.description }),
      ...(ip.protection ? { layer4: ip.protection.layer4, layer7: ip.protection.layer7 } : {}),
    })),
  };
}

/** The control surface's change body; settings of an address need the address. Takes its nested shape, or the flat one. */
export function serverChangeBody(change: ServerChange): object {
  const { power, status, firewallEnabled, firewallRulesets, ip, rdns, description, layer4, layer7 } = change;
  const flatFirewall = firewallEnabled !== undefined || firewallRulesets !== undefined;
  if (change.firewall !== undefined && flatFirewall) throw new Error('changeServer: set firewall, or firewallEnabled and firewallRulesets (the flat form), not both');
  const firewall = change.firewall ?? (flatFirewall ? { enabled: firewallEnabled, rulesets: firewallRulesets } : undefined);
  const touchesIp = [rdns, description, layer4, layer7].some((v) => v !== undefined);
  if (ip !== undefined && typeof ip !== 'string') {
    if (touchesIp) throw new Error('changeServer: with ip as an object, put rdns, description and protection inside it');
    if (ip.protection && (ip.protection.layer4 === undefined || ip.protection.layer7 === undefined)) throw new Error('changeServer: set layer4 and layer7 together, as the API sets them');
    return { power, status, firewall, ip };
  }
  if (touchesIp && ip === undefined) throw new Error('changeServer: rdns, description and the protection layers change one address: set ip too');
  if ((layer4 === undefined) !== (layer7 === undefined)) throw new Error('changeServer: set layer4 and layer7 together, as the API sets them');
  const protection = layer4 === undefined ? undefined : { layer4, layer7 };
  return { power, status, firewall, ip: ip === undefined ? undefined : { address: ip, rdns, description, protection } };
}
