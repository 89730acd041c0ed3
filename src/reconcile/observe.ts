import { explainApiError, type ReconcileContext } from './context';
import type { ApiResponse } from '../api/client';
import type { DdosRules, DdosStatus, Firewall, IpEntry, IpSettings, Metrics, Ruleset, Scope, Server, ServerDetail, Traffic } from '../api/schemas';

/** What a read shows, with where it came from: `stale` data is the API's last good value. */
export interface Observed<T> {
  readonly data: T;
  readonly observedAt: string | null;
  readonly stale: boolean;
}

/**
 * One read for showing, never for deciding a write (the data sources): a stale answer is returned
 * flagged, for the caller to say so; a refusal is explained, naming missing scopes.
 */
async function observe<T>(ctx: ReconcileContext, what: string, scopes: readonly Scope[], read: () => Promise<ApiResponse<T>>): Promise<Observed<T>> {
  const res = await read().catch((err) => explainApiError(ctx, `${what}: reading`, err, scopes));
  return { data: res.data, observedAt: res.meta?.observedAt ?? null, stale: res.meta?.stale === true };
}


export const observeServers = (ctx: ReconcileContext): Promise<Observed<Server[]>> =>
  observe(ctx, 'the account\'s server list (GET /servers, which plans and data sources read)', ['servers:read'], () => ctx.client.listServers());

export const observeServer = (ctx: ReconcileContext, serverId: string): Promise<Observed<ServerDetail>> =>
  observe(ctx, `server ${serverId}`, ['servers:read'], () => ctx.client.getServer(serverId));

export const observeServerIps = (ctx: ReconcileContext, serverId: string): Promise<Observed<IpEntry[]>> =>
  observe(ctx, `addresses of ${serverId}`, ['network:read'], () => ctx.client.listIps(serverId));

export const observeIpSettings = (ctx: ReconcileContext, serverId: string, ip: string): Promise<Observed<IpSettings>> =>
  observe(ctx, `ip settings ${serverId} ${ip}`, ['network:read'], () => ctx.client.getIpSettings(serverId, ip));

export const observeFirewall = (ctx: ReconcileContext, serverId: string): Promise<Observed<Firewall>> =>
  observe(ctx, `firewall ${serverId}`, ['network:read'], () => ctx.client.getFirewall(serverId));

export const observeRulesets = (ctx: ReconcileContext): Promise<Observed<Ruleset[]>> => observe(ctx, 'firewall rule sets', ['network:read'], () => ctx.client.listRulesets());

export const observeMetrics = (ctx: ReconcileContext, serverId: string): Promise<Observed<Metrics>> =>
  observe(ctx, `metrics of ${serverId}`, ['servers:read'], () => ctx.client.getMetrics(serverId));

export const observeTraffic = (ctx: ReconcileContext, serverId: string): Promise<Observed<Traffic>> =>
  observe(ctx, `traffic of ${serverId}`, ['network:read'], () => ctx.client.getTraffic(serverId));

export const observeDdos = (ctx: ReconcileContext, serverId: string, ip?: string): Promise<Observed<DdosStatus>> =>
  observe(ctx, `ddos status of ${serverId}${ip ? ` ${ip}` : ''}`, ['network:read'], () => ctx.client.getDdosStatus(serverId, ip));

export const observeDdosRules = (ctx: ReconcileContext, serverId: string, ip: string): Promise<Observed<DdosRules>> =>
  observe(ctx, `ddos rules of ${serverId} ${ip}`, ['network:read'], () => ctx.client.getDdosRules(serverId, ip));
