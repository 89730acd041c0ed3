import type { Ruleset, Server, ServerDetail, TokenInfo } from '../api/schemas';
import type { ReconcileContext } from '../reconcile/context';
import { readRulesets } from '../reconcile/firewall';
import { observeServers, type Observed } from '../reconcile/observe';
import type { TokenScopes } from '../reconcile/preflight';
import { readServerDetail, readServerList } from '../reconcile/servers';

/**
 * The reads every resource of a provider process shares, each made once for whichever RPC asks
 * first; a caller that comes while one is in flight waits on it, and a failed one is asked again
 * by the next caller. The token's answer is ConfigureProvider's.
 */
export interface SharedReads {
  /**
   * A server as GET /servers lists it, or undefined when the account has none such: fresh, for
   * deciding what no power write changes (existence, kind, access, status, addresses). Read once
   * per process: a power decision reads the server itself.
   */
  listedServer(serverId: string): Promise<Server | undefined>;
  /** When the API observed the list `listedServer` answers from (its `meta.observedAt`), if it said. */
  listedAt(): Promise<string | undefined>;
  /** GET /servers as the process read it once, stale or not: for showing (data sources), never for deciding. */
  serverList(): Promise<Observed<Server[]>>;
  /** GET /firewall/rulesets, fresh. */
  rulesets(): Promise<readonly Ruleset[]>;
  /** GET /connect, as ConfigureProvider tested the token: what it may do, for plan-time checks. */
  token(): TokenScopes;
  /** The same answer in full, for the hosting_token data source. */
  tokenInfo(): TokenInfo;
  /** GET /servers/{id}, fresh, never shared: the actions on offer now are not in the list; given up after `budgetSeconds`. */
  serverDetail(serverId: string, budgetSeconds?: number): Promise<ServerDetail>;
  /** After a power write: the next data source reads the list again, to show the power it made. */
  forgetServerList(): void;
}

/** A load made once until forgotten; a failed one is not kept, so the next caller asks again. */
function once<T>(load: () => Promise<T>): { (): Promise<T>; forget(): void } {
  let pending: Promise<T> | undefined;
  const get = () => {
    pending ??= load().catch((err) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
  return Object.assign(get, { forget: () => (pending = undefined) });
}

/** `readContext` makes the context of one shared read (its warnings go to the log only). */
export function sharedReads(readContext: (budgetSeconds?: number) => ReconcileContext, tokenInfo: TokenInfo): SharedReads {
  const token: TokenScopes = { name: tokenInfo.token.name, scopes: tokenInfo.token.scopes, accountId: tokenInfo.accountId };
  const observedList = once(() => observeServers(readContext()));
  // Resources decide on the list (existence, power): a stale one is read again until fresh.
  const servers = once(async () => {
    const observed = await observedList();
    const fresh = observed.stale ? await readServerList(readContext()) : observed;
    return { byId: new Map(fresh.data.map((s) => [s.id, s])), observedAt: fresh.observedAt ?? undefined };
  });
  return {
    listedServer: async (serverId) => (await servers()).byId.get(serverId),
    listedAt: async () => (await servers()).observedAt,
    serverList: observedList,
    rulesets: once(() => readRulesets(readContext(), 'firewall')),
    token: () => token,
    tokenInfo: () => tokenInfo,
    serverDetail: (serverId, budgetSeconds) => readServerDetail(readContext(budgetSeconds), serverId),
    forgetServerList: () => observedList.forget(),
  };
}
