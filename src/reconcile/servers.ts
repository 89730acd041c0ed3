import { explainApiError, readFresh, type ReconcileContext } from './context';
import type { Server, ServerDetail } from '../api/schemas';

/** GET /servers, fresh: whether a server exists and its power, for every resource of a run at once. */
export async function readServerList(ctx: ReconcileContext): Promise<Server[]> {
  const res = await readFresh(ctx, 'servers', () => ctx.client.listServers()).catch((err) => explainApiError(ctx, 'reading the server list', err, ['servers:read']));
  return res.data;
}

/** GET /servers/{id}, fresh: with the actions the token may run now and the operation in flight. */
export async function readServerDetail(ctx: ReconcileContext, serverId: string, label = `server ${serverId}`): Promise<ServerDetail> {
  const res = await readFresh(ctx, label, () => ctx.client.getServer(serverId)).catch((err) => explainApiError(ctx, `${label}: reading`, err, ['servers:read']));
  return res.data;
}
