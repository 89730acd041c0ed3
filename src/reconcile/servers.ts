import { explainApiError, readFresh, type ReconcileContext } from './context';
import type { Observed } from './observe';
import type { Server, ServerDetail } from '../api/schemas';

/** GET /servers, fresh: whether a server exists and its power, for every resource of a run at once, and when the API observed it. */
export async function readServerList(ctx: ReconcileContext): Promise<Omit<Observed<Server[]>, 'stale'>> {
  const res = await readFresh(ctx, 'servers', () => ctx.client.listServers()).catch((err) => explainApiError(ctx, 'reading the server list', err, ['servers:read']));
  return { data: res.data, observedAt: res.meta?.observedAt ?? null };
}

/** GET /servers/{id}, fresh: with the actions the token may run now and the operation in flight. */
export async function readServerDetail(ctx: ReconcileContext, serverId: string, label = `server ${serverId}`): Promise<ServerDetail> {
  const res = await readFresh(ctx, label, () => ctx.client.getServer(serverId)).catch((err) => explainApiError(ctx, `${label}: reading`, err, ['servers:read']));
  return res.data;
}
