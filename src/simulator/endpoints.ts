import type { OperationOutcome, ServerRecord, SimulatorState, TokenRecord } from './state';
import type { ApiErrorCode } from '../api/errors';
import {
  IPV4_PATTERN,
  SERVER_ID_PATTERN,
  actionRequestSchema,
  firewallPutSchema,
  ipSettingsPatchSchema,
  scopesForAction,
  type DdosStatus,
  type IpEntry,
  type Metrics,
  type Scope,
  type Traffic,
} from '../api/schemas';

export interface ErrorReply {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly message: string;
  readonly fields?: ReadonlyArray<{ path: string; message: string }>;
}

export type Reply = { readonly status: number; readonly data: unknown } | { readonly error: ErrorReply };

export interface EndpointContext {
  readonly state: SimulatorState;
  readonly token: TokenRecord;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly sourceIp: string;
  /** Set by an `operation` fault for this request. */
  readonly operationOutcome?: OperationOutcome;
}

export interface Endpoint {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  readonly template: string;
  /** Section 4 table; an empty list means any valid token. */
  readonly scopes: readonly Scope[];
  /** Power actions also spend the tighter action budget of section 8. */
  readonly isAction?: boolean;
  readonly handle: (ctx: EndpointContext) => Reply;
}

export const fail = (status: number, code: ApiErrorCode, message: string, fields?: ErrorReply['fields']): Reply => ({
  error: { status, code, message, fields },
});
const ok = (data: unknown, status = 200): Reply => ({ status, data });


type Lookup = { record: ServerRecord } | { reply: Reply };

/** 400 for a malformed id, 404 for an unknown one or another account's (no existence leak). */
function findServer(ctx: EndpointContext): Lookup {
  const id = ctx.params.serverId;
  if (!SERVER_ID_PATTERN.test(id)) {
    return { reply: fail(400, 'validation_failed', 'invalid server id', [{ path: 'serverId', message: 'must match ^(vps_[A-Za-z0-9-]{1,10}_\\d{1,10}|ded_[0-9a-f-]{36})$' }]) };
  }
  const record = ctx.state.serverFor(ctx.token.accountId, id);
  return record ? { record } : { reply: fail(404, 'not_found', `server ${id} does not exist on this account`) };
}

function findAddress(record: ServerRecord, ip: string): Reply | undefined {
  if (!IPV4_PATTERN.test(ip)) {
    return fail(400, 'validation_failed', 'invalid IPv4 address', [{ path: 'ip', message: 'must be an IPv4 address' }]);
  }
  return record.server.ipv4.includes(ip) ? undefined : fail(404, 'not_found', `address ${ip} is not assigned to server ${record.server.id}`);
}

function requireType(record: ServerRecord, wanted: 'dedicated' | 'virtual', what: string): Reply | undefined {
  const isDedicated = record.server.type === 'dedicated';
  if (wanted === 'dedicated' ? isDedicated : !isDedicated) return undefined;
  return fail(409, 'action_unsupported', `${what} is available for ${wanted === 'dedicated' ? 'dedicated servers' : 'VPS and VDS servers'} only; ${record.server.id} is ${record.server.type}`);
}

function requirePrimary(record: ServerRecord): Reply | undefined {
  return record.server.accessRole === 'primary'
    ? undefined
    : fail(403, 'primary_owner_required', `server ${record.server.id} is shared with this account; only its owner can change it`);
}

function zodFields(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) {
  return issues.map((i) => ({ path: i.path.map(String).join('.') || 'body', message: i.message }));
}

/** Chains lookups and checks: the first refusal wins. */
function withServer(ctx: EndpointContext, ...checks: Array<(record: ServerRecord) => Reply | undefined>) {
  return (then: (record: ServerRecord) => Reply): Reply => {
    const found = findServer(ctx);
    if ('reply' in found) return found.reply;
    for (const check of checks) {
      const refusal = check(found.record);
      if (refusal) return refusal;
    }
    return then(found.record);
  };
}

const defaultMetrics: Metrics = { sampledAt: null, cpuPercent: null, memory: null, storage: [], bandwidth: null };

function trafficOf(record: ServerRecord): Traffic {
  if (record.traffic) return record.traffic;
  return record.server.type === 'dedicated'
    ? { kind: 'rates', from: '2026-11-19T10:00:00Z', to: '2026-11-20T10:00:00Z', totals: null, interfaces: [] }
    : { kind: 'monthly', months: [] };
}

function ddosOf(record: ServerRecord, address: string | null): DdosStatus {
  const dedicated = record.server.type === 'dedicated';
  const incidents = dedicated && address === record.server.ipv4[0]
    ? [{ id: 'inc_2026_11_02', startedAt: '2026-11-02T03:14:00Z', endedAt: '2026-11-02T03:41:00Z', durationSeconds: 1620, peak: '18.4 Gbps', attackTypes: ['udp_flood', 'syn_flood'] }]
    : [];
  return { address, status: dedicated ? 'protected' : 'unavailable', incidents, totalIncidents: incidents.length, addresses: [...record.server.ipv4] };
}

function runAction(ctx: EndpointContext, record: ServerRecord): Reply {
  const parsed = actionRequestSchema.safeParse(ctx.body);
  if (!parsed.success) return fail(400, 'validation_failed', 'invalid action request', zodFields(parsed.error.issues));
  const { action } = parsed.data;
  const missing = scopesForAction(action).filter((s) => !ctx.token.scopes.has(s));
  if (missing.length > 0) {
    return fail(403, 'insufficient_scope', `${action} needs the scope(s) ${missing.join(', ')}`);
  }
  const { server } = record;
  if (server.status === 'suspended') return fail(423, 'service_locked', `server ${server.id} is suspended`);
  if (server.status !== 'active') {
    return fail(409, 'action_unsupported', `server ${server.id} is ${server.status}; power actions are accepted only while it is active`);
  }
  if (record.currentOperationId) {
    return fail(409, 'action_unsupported', `operation ${record.currentOperationId} is still in progress on server ${server.id}`);
  }
  if (!ctx.state.actionsFor(record, ctx.token.scopes).includes(action)) {
    return fail(409, 'action_unsupported', `${action} is not possible while server ${server.id} is ${server.power}`);
  }
  const operation = ctx.state.startAction(record, action, ctx.operationOutcome ?? { status: 'succeeded', takesEffect: true });
  return ok({ operation }, 202);
}

/**
 * This simulated API's own limits (the spec's are "not shown"): rDNS labels of letters, digits,
 * hyphens and underscores; descriptions of at most 1,000 characters. Clients must not assume them.
 */
const SIMULATED_RDNS = /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?)*\.?$/;
const SIMULATED_MAX_DESCRIPTION = 1000;

function patchIp(ctx: EndpointContext, record: ServerRecord): Reply {
  const ip = ctx.params.ip;
  const parsed = ipSettingsPatchSchema.safeParse(ctx.body);
  if (!parsed.success) return fail(400, 'validation_failed', 'invalid IP settings change', zodFields(parsed.error.issues));
  const change = parsed.data;
  const fields = [];
  if (change.rdns !== undefined && !SIMULATED_RDNS.test(change.rdns)) fields.push({ path: 'rdns', message: 'must be a host name' });
  if (change.description !== undefined && change.description.length > SIMULATED_MAX_DESCRIPTION) {
    fields.push({ path: 'description', message: `must be at most ${SIMULATED_MAX_DESCRIPTION} characters` });
  }
  if (fields.length > 0) return fail(400, 'validation_failed', 'invalid IP settings change', fields);
  if (record.server.status === 'suspended') return fail(423, 'service_locked', `server ${record.server.id} is suspended`);
  const current = record.ipSettings.get(ip)!;
  const member = Object.keys(change)[0] as 'rdns' | 'description' | 'protection';
  if (!current.editable[member]) {
    return fail(409, 'action_unsupported', `${member} of ${ip} is not editable`);
  }
  return ok(ctx.state.setIpSetting(record, ip, change));
}

function putFirewall(ctx: EndpointContext, record: ServerRecord): Reply {
  const parsed = firewallPutSchema.safeParse(ctx.body);
  if (!parsed.success) return fail(400, 'validation_failed', 'invalid firewall change', zodFields(parsed.error.issues));
  const known = new Set(ctx.state.rulesets.map((r) => r.id));
  const unknown = (parsed.data.rulesets ?? [])
    .map((id, index) => ({ id, index }))
    .filter(({ id }) => !known.has(id))
    .map(({ id, index }) => ({ path: `rulesets.${index}`, message: `rule set ${id} does not exist` }));
  if (unknown.length > 0) return fail(400, 'validation_failed', 'unknown rule set', unknown);
  const change = parsed.data.rulesets ? { ...parsed.data, rulesets: [...new Set(parsed.data.rulesets)] } : parsed.data;
  return ok(ctx.state.setFirewall(record, change));
}

export const ENDPOINTS: readonly Endpoint[] = [
  {
    method: 'GET',
    template: '/connect',
    scopes: [],
    handle: (ctx) => ok({
      accountId: ctx.token.accountId,
      token: { name: ctx.token.name, type: ctx.token.type, scopes: [...ctx.token.scopes] },
      sourceIp: ctx.sourceIp,
      apiVersion: 'v1',
    }),
  },
  {
    method: 'GET',
    template: '/servers',
    scopes: ['servers:read'],
    handle: (ctx) => ok(ctx.state.serversOf(ctx.token.accountId).map((r) => r.server)),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}',
    scopes: ['servers:read'],
    handle: (ctx) => withServer(ctx)((r) => ok(ctx.state.detail(r, ctx.token.scopes))),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}/metrics',
    scopes: ['servers:read'],
    handle: (ctx) => withServer(ctx)((r) => ok(r.metrics ?? defaultMetrics)),
  },
  {
    method: 'POST',
    template: '/servers/{serverId}/actions',
    scopes: ['servers:power'],
    isAction: true,
    handle: (ctx) => withServer(ctx, requirePrimary)((r) => runAction(ctx, r)),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}/operations/{operationId}',
    scopes: ['servers:read'],
    handle: (ctx) => withServer(ctx)((r) => {
      const op = ctx.state.operation(r.server.id, ctx.params.operationId);
      return op ? ok(op) : fail(404, 'not_found', `operation ${ctx.params.operationId} does not exist on server ${r.server.id}`);
    }),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}/ips',
    scopes: ['network:read'],
    handle: (ctx) => withServer(ctx)((r) => {
      const entries: IpEntry[] = [
        ...r.server.ipv4.map((address, i) => ({ address, version: 'ipv4' as const, primary: i === 0 })),
        ...r.server.ipv6.map((address) => ({ address, version: 'ipv6' as const, primary: false })),
      ];
      return ok(entries);
    }),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}/ips/{ip}',
    scopes: ['network:read'],
    handle: (ctx) => withServer(ctx, (r) => findAddress(r, ctx.params.ip), (r) => requireType(r, 'dedicated', 'IP settings'))(
      (r) => ok(r.ipSettings.get(ctx.params.ip)),
    ),
  },
  {
    method: 'PATCH',
    template: '/servers/{serverId}/ips/{ip}',
    scopes: ['network:write'],
    handle: (ctx) => withServer(ctx, (r) => findAddress(r, ctx.params.ip), requirePrimary, (r) => requireType(r, 'dedicated', 'IP settings'))(
      (r) => patchIp(ctx, r),
    ),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}/traffic',
    scopes: ['network:read'],
    handle: (ctx) => withServer(ctx)((r) => ok(trafficOf(r))),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}/ddos',
    scopes: ['network:read'],
    handle: (ctx) => withServer(ctx)((r) => {
      const ip = ctx.query.get('ip');
      if (ip !== null) {
        const refusal = findAddress(r, ip);
        if (refusal) return refusal;
      }
      return ok(ddosOf(r, ip ?? r.server.ipv4[0] ?? null));
    }),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}/ips/{ip}/ddos/rules',
    scopes: ['network:read'],
    handle: (ctx) => withServer(ctx, (r) => findAddress(r, ctx.params.ip), (r) => requireType(r, 'dedicated', 'DDoS filter rules'))(
      () => ok({
        address: ctx.params.ip,
        available: true,
        rules: [{ protocol: 'tcp', port: 22, state: 'allow' }, { protocol: 'tcp', port: 443, state: 'allow' }, { protocol: 'udp', port: 53, state: 'filter' }],
      }),
    ),
  },
  {
    method: 'GET',
    template: '/firewall/rulesets',
    scopes: ['network:read'],
    handle: (ctx) => ok(ctx.state.rulesets),
  },
  {
    method: 'GET',
    template: '/servers/{serverId}/firewall',
    scopes: ['network:read'],
    handle: (ctx) => withServer(ctx, (r) => requireType(r, 'virtual', 'The firewall'))((r) => ok(r.firewall)),
  },
  {
    method: 'PUT',
    template: '/servers/{serverId}/firewall',
    scopes: ['network:write'],
    handle: (ctx) => withServer(ctx, requirePrimary, (r) => requireType(r, 'virtual', 'The firewall'))((r) => putFirewall(ctx, r)),
  },
];

export interface RouteMatch {
  readonly endpoint: Endpoint;
  readonly params: Record<string, string>;
}

/** Matches a path below `/api/v1`; the method must match too (an unknown method is an unknown endpoint). */
export function matchEndpoint(method: string, path: string): RouteMatch | undefined {
  const segments = path.split('/').filter(Boolean);
  for (const endpoint of ENDPOINTS) {
    const parts = endpoint.template.split('/').filter(Boolean);
    if (endpoint.method !== method || parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, i) => {
      if (part.startsWith('{')) {
        params[part.slice(1, -1)] = decodeURIComponent(segments[i]);
        return true;
      }
      return part === segments[i];
    });
    if (matches) return { endpoint, params };
  }
  return undefined;
}
