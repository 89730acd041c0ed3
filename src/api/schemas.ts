import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { MAX_REQUEST_BODY_BYTES } from '../contract/patterns';
import type { Scope } from '../contract/scopes';

// zod/mini (not classic zod): the handler starts one process per Terraform resource, and classic
// zod adds ~70 ms to each start. The English locale keeps validation messages readable.
z.config(en());

/*
 * The shapes of section 2 of the Hosting API spec, shared by the client (to validate what it
 * receives) and the simulator (to build and check what it sends), so the two cannot drift apart.
 *
 * Response objects use `z.object`, which drops unknown members instead of failing: a newer server
 * may add fields without breaking older clients. Documented members are all required, because the
 * spec says they are always present. Request bodies are strict: the spec forbids extra members.
 */

export { SERVER_ID_PATTERN, IPV4_PATTERN } from '../contract/patterns';
export { SCOPES, type Scope } from '../contract/scopes';

const isoTimestamp = z.string();
const nullableNumber = z.nullable(z.number());

export const TOKEN_TYPES = ['personal_token', 'reseller_token'] as const;

export const tokenInfoSchema = z.object({
  accountId: z.int(),
  token: z.object({
    name: z.string(),
    type: z.enum(TOKEN_TYPES),
    scopes: z.array(z.string()),
  }),
  sourceIp: z.string(),
  apiVersion: z.enum(['v1']),
});
export type TokenInfo = z.infer<typeof tokenInfoSchema>;

export const SERVER_TYPES = ['vps', 'vds', 'dedicated'] as const;
export const SERVER_STATUSES = ['active', 'provisioning', 'building', 'suspended', 'failed', 'terminated'] as const;
export const POWER_VALUES = ['running', 'stopped', 'unknown'] as const;
export const ACCESS_ROLES = ['primary', 'secondary'] as const;
export const POWER_ACTIONS = ['start', 'shutdown', 'power_off', 'reboot', 'reset'] as const;
export const OPERATION_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'timed_out', 'outcome_unknown'] as const;
/** Section 3.2: an operation in one of these statuses never changes again. */
export const FINAL_OPERATION_STATUSES = ['succeeded', 'failed', 'timed_out', 'outcome_unknown'] as const;

export type ServerType = (typeof SERVER_TYPES)[number];
export type ServerStatus = (typeof SERVER_STATUSES)[number];
export type PowerValue = (typeof POWER_VALUES)[number];
export type PowerAction = (typeof POWER_ACTIONS)[number];
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

export function isFinalOperationStatus(status: OperationStatus): boolean {
  return (FINAL_OPERATION_STATUSES as readonly string[]).includes(status);
}

export const operationSchema = z.object({
  id: z.string(),
  serverId: z.string(),
  action: z.string(),
  status: z.enum(OPERATION_STATUSES),
  message: z.nullable(z.string()),
  requestedAt: z.nullable(isoTimestamp),
  completedAt: z.nullable(isoTimestamp),
});
export type Operation = z.infer<typeof operationSchema>;

export const serverSchema = z.object({
  id: z.string(),
  type: z.enum(SERVER_TYPES),
  name: z.string(),
  hostname: z.nullable(z.string()),
  status: z.enum(SERVER_STATUSES),
  power: z.enum(POWER_VALUES),
  ipv4: z.array(z.string()),
  ipv6: z.array(z.string()),
  os: z.nullable(z.string()),
  resources: z.object({
    cpuCores: nullableNumber,
    memoryMb: nullableNumber,
    storageGb: nullableNumber,
    trafficGb: nullableNumber,
  }),
  accessRole: z.enum(ACCESS_ROLES),
  serviceId: z.nullable(z.int()),
  createdAt: z.nullable(isoTimestamp),
});
export type Server = z.infer<typeof serverSchema>;

/** The single-server read (4.3) adds what this token may do now and what is in progress. */
export const serverDetailSchema = z.extend(serverSchema, {
  actions: z.array(z.enum(POWER_ACTIONS)),
  currentOperation: z.nullable(operationSchema),
});
export type ServerDetail = z.infer<typeof serverDetailSchema>;

const usageEntry = { totalBytes: z.number(), usedBytes: z.number(), usagePercent: nullableNumber };
export const metricsSchema = z.object({
  sampledAt: z.nullable(isoTimestamp),
  cpuPercent: nullableNumber,
  memory: z.nullable(z.object(usageEntry)),
  storage: z.array(z.object({ mount: z.string(), ...usageEntry })),
  bandwidth: z.nullable(z.object({ usedBytes: z.number(), limitBytes: nullableNumber })),
});
export type Metrics = z.infer<typeof metricsSchema>;

export const ipEntrySchema = z.object({
  address: z.string(),
  version: z.enum(['ipv4', 'ipv6']),
  primary: z.boolean(),
});
export type IpEntry = z.infer<typeof ipEntrySchema>;

export const LAYER4_MODES = ['dynamic', 'permanent'] as const;
export const LAYER7_MODES = ['off', 'permanent', 'only'] as const;
export type Layer4Mode = (typeof LAYER4_MODES)[number];
export type Layer7Mode = (typeof LAYER7_MODES)[number];

export const protectionSchema = z.object({
  layer4: z.enum(LAYER4_MODES),
  layer7: z.enum(LAYER7_MODES),
});
export type Protection = z.infer<typeof protectionSchema>;

export const IP_SETTING_FIELDS = ['rdns', 'description', 'protection'] as const;
export type IpSettingField = (typeof IP_SETTING_FIELDS)[number];

export const ipSettingsSchema = z.object({
  address: z.string(),
  rdns: z.nullable(z.string()),
  description: z.nullable(z.string()),
  protection: z.nullable(protectionSchema),
  editable: z.object({ rdns: z.boolean(), description: z.boolean(), protection: z.boolean() }),
});
export type IpSettings = z.infer<typeof ipSettingsSchema>;

const ratePoint = z.object({ time: isoTimestamp, mbps: z.number() });
export const trafficSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('rates'),
    from: isoTimestamp,
    to: isoTimestamp,
    totals: z.nullable(z.object({ incomingGb: z.number(), outgoingGb: z.number() })),
    interfaces: z.array(z.object({ incoming: z.array(ratePoint), outgoing: z.array(ratePoint) })),
  }),
  z.object({
    kind: z.literal('monthly'),
    months: z.array(
      z.object({
        start: isoTimestamp,
        end: isoTimestamp,
        rxBytes: z.number(),
        txBytes: z.number(),
        totalBytes: z.number(),
        limitGb: nullableNumber,
      }),
    ),
  }),
]);
export type Traffic = z.infer<typeof trafficSchema>;

export const ddosStatusSchema = z.object({
  address: z.nullable(z.string()),
  status: z.enum(['protected', 'unavailable']),
  incidents: z.array(
    z.object({
      id: z.string(),
      startedAt: isoTimestamp,
      endedAt: z.nullable(isoTimestamp),
      durationSeconds: nullableNumber,
      peak: z.nullable(z.string()),
      // Allowed values are "not shown" in the spec: any string is accepted.
      attackTypes: z.array(z.string()),
    }),
  ),
  totalIncidents: z.int(),
  addresses: z.array(z.string()),
});
export type DdosStatus = z.infer<typeof ddosStatusSchema>;

export const ddosRulesSchema = z.object({
  address: z.string(),
  available: z.boolean(),
  // protocol and state values are "not shown" in the spec: any string is accepted.
  rules: z.array(z.object({ protocol: z.string(), port: z.number(), state: z.string() })),
});
export type DdosRules = z.infer<typeof ddosRulesSchema>;

export const rulesetSchema = z.object({ id: z.int(), name: z.string() });
export type Ruleset = z.infer<typeof rulesetSchema>;

export const firewallSchema = z.object({ enabled: z.boolean(), rulesets: z.array(z.int()) });
export type Firewall = z.infer<typeof firewallSchema>;

export const actionAcceptedSchema = z.object({ operation: operationSchema });

export const metaSchema = z.object({ observedAt: z.optional(isoTimestamp), stale: z.optional(z.boolean()) });
export type Meta = z.infer<typeof metaSchema>;

export const errorFieldSchema = z.object({ path: z.string(), message: z.string() });
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    requestId: z.string(),
    fields: z.optional(z.array(errorFieldSchema)),
  }),
});

// Request bodies: strict, because section 4 forbids members it does not list.

export const actionRequestSchema = z.strictObject({ action: z.enum(POWER_ACTIONS) });
export type ActionRequest = z.infer<typeof actionRequestSchema>;

/** Section 4.9: exactly one member per request. */
export type IpSettingsChange = { rdns: string } | { description: string } | { protection: Protection };
export const ipSettingsPatchSchema = z
  .strictObject({
    rdns: z.optional(z.string()),
    description: z.optional(z.string()),
    protection: z.optional(z.strictObject({ layer4: z.enum(LAYER4_MODES), layer7: z.enum(LAYER7_MODES) })),
  })
  .check(z.refine((body) => Object.keys(body).length === 1, { message: 'exactly one of rdns, description, protection is required' }));

export type FirewallChange = Partial<Firewall>;
export const firewallPutSchema = z.strictObject({
  enabled: z.optional(z.boolean()),
  rulesets: z.optional(z.array(z.int())),
});

/** Section 8. */
export const LIMITS = {
  requestsPerTokenPerMinute: 120,
  actionsPerTokenPerMinute: 10,
  requestsPerAccountPerMinute: 300,
  maxBodyBytes: MAX_REQUEST_BODY_BYTES,
  idempotencyKeyMinLength: 8,
  idempotencyKeyMaxLength: 128,
} as const;

/** Section 5: the scope each action needs, beyond a valid token. */
export function scopesForAction(action: PowerAction): Scope[] {
  return action === 'start' || action === 'reboot' ? ['servers:power'] : ['servers:power', 'servers:control'];
}
