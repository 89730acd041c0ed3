import { explainApiError, readFresh, type ReconcileContext } from './context';
import type { Server } from '../api/schemas';

/** GET /servers, fresh: whether a server exists and its power, for every resource of a run at once. */
export async function readServerList(ctx: ReconcileContext): Promise<Server[]> {
  const res = await readFresh(ctx, 'servers', () => ctx.client.listServers()).catch((err) => explainApiError(ctx, 'reading the server list', err, ['servers:read']));
  return res.data;
}
