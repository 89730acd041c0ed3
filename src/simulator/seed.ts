import { randomBytes } from 'node:crypto';
import type { Firewall, IpSettings, Metrics, Ruleset, Scope, Server, Traffic } from '../api/schemas';

export interface SeedToken {
  readonly name: string;
  /** The plaintext, handed to whoever starts the simulator; the simulator keeps only its hash. */
  readonly secret: string;
  readonly accountId: number;
  readonly type: 'personal_token' | 'reseller_token';
  readonly scopes: readonly Scope[];
  /** Milliseconds since the epoch; omitted means 30 days after the simulator starts. */
  readonly expiresAt?: number;
  readonly revoked?: boolean;
  /** Section 5, rule 4: at most ten addresses; reseller tokens always have one. */
  readonly allowlist?: readonly string[];
}

export interface SeedServer {
  readonly accountId: number;
  readonly server: Server;
  /** VPS and VDS only. */
  readonly firewall?: Firewall;
  /** Dedicated only: settings per IPv4 address. */
  readonly ipSettings?: readonly IpSettings[];
  /** For `provisioning`/`building` servers: how long until they become `active`. */
  readonly activeAfterMs?: number;
  readonly metrics?: Metrics;
  readonly traffic?: Traffic;
}

export interface SimulatorSeed {
  readonly tokens: readonly SeedToken[];
  readonly servers: readonly SeedServer[];
  readonly rulesets: readonly Ruleset[];
}

/**
 * What a token's name may be: the simulator prints names to terminals and logs, so a name cannot
 * carry a line break or an escape sequence.
 */
export const TOKEN_NAME_PATTERN = /^[\w-]{1,40}$/;
export const TOKEN_NAME_RULE = 'letters, digits, _ and -, at most 40';

export const DEMO_ACCOUNT_ID = 4711;
export const OTHER_ACCOUNT_ID = 815;

/** Names of the seeded tokens, each exercising one rule of section 5. */
export const SEED_TOKEN_NAMES = {
  full: 'full',
  readOnly: 'read-only',
  powerWithoutControl: 'power-without-control',
  reseller: 'reseller',
  resellerElsewhere: 'reseller-elsewhere',
  expired: 'expired',
  revoked: 'revoked',
  otherAccount: 'other-account',
} as const;

const ALL_SCOPES: Scope[] = ['servers:read', 'servers:power', 'servers:control', 'network:read', 'network:write'];

export const SEED_SERVER_IDS = {
  vpsRunning: 'vps_web_1',
  vpsStopped: 'vps_web_2',
  vdsRunning: 'vps_vds_3',
  vpsProvisioning: 'vps_new_4',
  vpsShared: 'vps_shared_5',
  vpsSuspended: 'vps_susp_6',
  vpsFailed: 'vps_fail_7',
  dedicated: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b',
  dedicatedStopped: 'ded_0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  otherAccount: 'vps_other_8',
} as const;

export const SEED_DEDICATED_IPS = {
  primary: '203.0.113.10',
  secondary: '203.0.113.11',
  /** Its rdns is managed by the provider: `editable.rdns` is false. */
  locked: '203.0.113.12',
} as const;

export function serverWithDefaults(id: string, fields: Partial<Server> & Pick<Server, 'type' | 'name'>): Server {
  return {
    id,
    hostname: `${fields.name}.example.com`,
    status: 'active',
    power: 'running',
    ipv4: [],
    ipv6: [],
    os: 'debian-12',
    resources: { cpuCores: 2, memoryMb: 4096, storageGb: 80, trafficGb: 20_000 },
    accessRole: 'primary',
    serviceId: 10_000 + id.length,
    createdAt: '2026-01-15T09:30:00Z',
    ...fields,
  };
}

function vpsMetrics(cpu: number): Metrics {
  return {
    sampledAt: '2026-11-20T10:00:00Z',
    cpuPercent: cpu,
    memory: { totalBytes: 4_294_967_296, usedBytes: 1_288_490_188, usagePercent: 30 },
    storage: [{ mount: '/', totalBytes: 85_899_345_920, usedBytes: 21_474_836_480, usagePercent: 25 }],
    bandwidth: { usedBytes: 53_687_091_200, limitBytes: 21_474_836_480_000 },
  };
}

function monthlyTraffic(): Traffic {
  return {
    kind: 'monthly',
    months: [
      { start: '2026-10-01T00:00:00Z', end: '2026-10-31T23:59:59Z', rxBytes: 120e9, txBytes: 340e9, totalBytes: 460e9, limitGb: 20_000 },
      { start: '2026-11-01T00:00:00Z', end: '2026-11-30T23:59:59Z', rxBytes: 40e9, txBytes: 90e9, totalBytes: 130e9, limitGb: 20_000 },
    ],
  };
}

export function ipSettingsWithDefaults(address: string, overrides: Partial<IpSettings> = {}): IpSettings {
  return {
    address,
    rdns: null,
    description: null,
    protection: { layer4: 'dynamic', layer7: 'off' },
    editable: { rdns: true, description: true, protection: true },
    ...overrides,
  };
}

/** The seed with no server changing by itself (the demo's provisioning VPS stays provisioning). */
export function withoutTimedTransitions(seed: SimulatorSeed): SimulatorSeed {
  return { ...seed, servers: seed.servers.map(({ activeAfterMs: _, ...server }) => server) };
}

/** What ends every demo token's fixed secret. */
const DEMO_SECRET_SUFFIX = '_0123456789abcdef';

/**
 * The seed with each demo token's fixed secret (printed in the docs, the same everywhere) replaced
 * by a random one: what a simulator that other machines reach accepts instead.
 */
export function withoutDemoSecrets(seed: SimulatorSeed): SimulatorSeed {
  const fresh = (t: SeedToken) => ({ ...t, secret: `hsim_${t.name.replace(/\W/g, '_')}_${randomBytes(16).toString('hex')}` });
  return { ...seed, tokens: seed.tokens.map((t) => (t.secret.startsWith('hsim_') && t.secret.endsWith(DEMO_SECRET_SUFFIX) ? fresh(t) : t)) };
}

/**
 * The default world: one account with a token per rule of section 5, servers in every status and
 * role, a dedicated server with several addresses (one not editable), and another account's server.
 * Secrets are fixed so the demo can print them; they are worthless outside the simulator.
 */
export function defaultSeed(): SimulatorSeed {
  const token = (name: string, fields: Partial<SeedToken> = {}): SeedToken => ({
    name,
    secret: `hsim_${name.replace(/-/g, '_')}${DEMO_SECRET_SUFFIX}`,
    accountId: DEMO_ACCOUNT_ID,
    type: 'personal_token',
    scopes: ALL_SCOPES,
    ...fields,
  });
  const ids = SEED_SERVER_IDS;
  const ips = SEED_DEDICATED_IPS;
  return {
    tokens: [
      token(SEED_TOKEN_NAMES.full),
      token(SEED_TOKEN_NAMES.readOnly, { scopes: ['servers:read', 'network:read'] }),
      token(SEED_TOKEN_NAMES.powerWithoutControl, { scopes: ['servers:read', 'servers:power', 'network:read'] }),
      token(SEED_TOKEN_NAMES.reseller, { type: 'reseller_token', allowlist: ['127.0.0.1', '::1'] }),
      token(SEED_TOKEN_NAMES.resellerElsewhere, { type: 'reseller_token', allowlist: ['198.51.100.23'] }),
      token(SEED_TOKEN_NAMES.expired, { expiresAt: Date.parse('2026-01-01T00:00:00Z') }),
      token(SEED_TOKEN_NAMES.revoked, { revoked: true }),
      token(SEED_TOKEN_NAMES.otherAccount, { accountId: OTHER_ACCOUNT_ID }),
    ],
    rulesets: [
      { id: 1, name: 'web' },
      { id: 2, name: 'ssh' },
      { id: 3, name: 'mail' },
      { id: 4, name: 'monitoring' },
    ],
    servers: [
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.vpsRunning, { type: 'vps', name: 'web-1', ipv4: ['198.51.100.11'], ipv6: ['2001:db8::11'] }),
        firewall: { enabled: false, rulesets: [] },
        metrics: vpsMetrics(12.5),
        traffic: monthlyTraffic(),
      },
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.vpsStopped, { type: 'vps', name: 'web-2', power: 'stopped', ipv4: ['198.51.100.12'] }),
        firewall: { enabled: true, rulesets: [2] },
        metrics: vpsMetrics(0),
        traffic: monthlyTraffic(),
      },
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.vdsRunning, { type: 'vds', name: 'db-1', ipv4: ['198.51.100.13'], resources: { cpuCores: 8, memoryMb: 32_768, storageGb: 640, trafficGb: null } }),
        firewall: { enabled: true, rulesets: [2, 4] },
        metrics: vpsMetrics(48),
        traffic: monthlyTraffic(),
      },
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.vpsProvisioning, { type: 'vps', name: 'new-4', status: 'provisioning', power: 'stopped', ipv4: ['198.51.100.14'], createdAt: null }),
        firewall: { enabled: false, rulesets: [] },
        activeAfterMs: 1_500,
      },
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.vpsShared, { type: 'vps', name: 'partner-5', accessRole: 'secondary', serviceId: null, ipv4: ['198.51.100.15'] }),
        firewall: { enabled: true, rulesets: [1] },
      },
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.vpsSuspended, { type: 'vps', name: 'unpaid-6', status: 'suspended', power: 'stopped', ipv4: ['198.51.100.16'] }),
        firewall: { enabled: false, rulesets: [] },
      },
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.vpsFailed, { type: 'vps', name: 'broken-7', status: 'failed', power: 'unknown', ipv4: ['198.51.100.17'] }),
        firewall: { enabled: false, rulesets: [] },
      },
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.dedicated, {
          type: 'dedicated',
          name: 'metal-1',
          ipv4: [ips.primary, ips.secondary, ips.locked],
          ipv6: ['2001:db8:1::1'],
          resources: { cpuCores: 32, memoryMb: 131_072, storageGb: 3_840, trafficGb: null },
        }),
        ipSettings: [
          ipSettingsWithDefaults(ips.primary, { rdns: 'metal-1.example.com', description: 'primary' }),
          ipSettingsWithDefaults(ips.secondary),
          ipSettingsWithDefaults(ips.locked, { rdns: 'static.203-0-113-12.provider.example', editable: { rdns: false, description: true, protection: false } }),
        ],
        metrics: { sampledAt: '2026-11-20T10:00:00Z', cpuPercent: 7, memory: { totalBytes: 137_438_953_472, usedBytes: 34_359_738_368, usagePercent: 25 }, storage: [], bandwidth: null },
        traffic: {
          kind: 'rates',
          from: '2026-11-19T10:00:00Z',
          to: '2026-11-20T10:00:00Z',
          totals: { incomingGb: 312.5, outgoingGb: 1_024.25 },
          interfaces: [{
            incoming: [{ time: '2026-11-20T08:00:00Z', mbps: 120.5 }, { time: '2026-11-20T09:00:00Z', mbps: 98.25 }],
            outgoing: [{ time: '2026-11-20T08:00:00Z', mbps: 410 }, { time: '2026-11-20T09:00:00Z', mbps: 388.75 }],
          }],
        },
      },
      {
        accountId: DEMO_ACCOUNT_ID,
        server: serverWithDefaults(ids.dedicatedStopped, { type: 'dedicated', name: 'metal-2', power: 'stopped', ipv4: ['203.0.113.20'], os: null }),
        ipSettings: [ipSettingsWithDefaults('203.0.113.20')],
        metrics: { sampledAt: null, cpuPercent: null, memory: null, storage: [], bandwidth: null },
      },
      {
        accountId: OTHER_ACCOUNT_ID,
        server: serverWithDefaults(ids.otherAccount, { type: 'vps', name: 'elsewhere-8', ipv4: ['192.0.2.80'] }),
        firewall: { enabled: true, rulesets: [1, 2] },
      },
    ],
  };
}
