import type { HostingApiClient } from '../api/client';
import type { Ruleset, Server } from '../api/schemas';
import { explainApiError, readFresh, type ReconcileContext } from '../reconcile/context';
import { SETTINGS_RUN_SECONDS } from '../reconcile/plan-resource';
import { ReconcileError } from '../reconcile/reconcile-error';

/**
 * What every resource operation of one provider process shares: the client (one pacer for the
 * whole run), reads that many resources need once, and Terraform's request to stop.
 */
export interface ProviderSession {
  /** A context for one resource operation: its key namespace and its own deadline. */
  context(keyNamespace: string, budgetSeconds: number): ReconcileContext;
  /**
   * A server as listed by GET /servers, or undefined when the account has no such server. A
   * refresh of N power states costs one list read: a plan process makes no write, so one fresh
   * list serves every refresh of the run.
   */
  listedServer(serverId: string): Promise<Server | undefined>;
  /** GET /firewall/rulesets, read at most once per process. */
  rulesets(label: string): Promise<readonly Ruleset[]>;
}

export interface SessionOptions {
  readonly client: HostingApiClient;
  readonly tokenEnvVar: string;
  readonly log: (line: string) => void;
  readonly now: () => number;
}

const stoppedError = () =>
  new ReconcileError(
    'stopped: Terraform asked the provider to stop (Ctrl-C) while it was waiting; no further request was started',
    'run the apply again: the provider reads the servers first, so completed actions are not repeated',
  );

/** A sleep that ends, rejecting, as soon as `signal` aborts. */
export function stoppableSleep(signal: AbortSignal): (ms: number) => Promise<void> {
  return (ms) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(stoppedError());
      const onAbort = () => {
        clearTimeout(timer);
        reject(stoppedError());
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
}

/** `stopped` is Terraform's StopProvider (Ctrl-C): every wait of the session then ends at once with a clear error. */
export function createSession(options: SessionOptions, stopped: AbortSignal): ProviderSession {
  const sleep = stoppableSleep(stopped);
  const context = (keyNamespace: string, budgetSeconds: number): ReconcileContext => ({
    client: options.client,
    instanceId: keyNamespace,
    tokenEnvVar: options.tokenEnvVar,
    log: options.log,
    sleep,
    now: options.now,
    deadlineAt: options.now() + budgetSeconds * 1000,
  });
  const readContext = () => context('read', SETTINGS_RUN_SECONDS);
  const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
    let pending: Promise<T> | undefined;
    return () => {
      // A failed read is not kept: the next resource asks again.
      pending ??= load().catch((err) => {
        pending = undefined;
        throw err;
      });
      return pending;
    };
  };
  const servers = once(async () => {
    const ctx = readContext();
    const res = await readFresh(ctx, 'servers', () => ctx.client.listServers())
      .catch((err) => explainApiError(ctx, 'reading the server list', err, ['servers:read']));
    return new Map(res.data.map((s) => [s.id, s]));
  });
  const rulesets = once(async () => (await options.client.listRulesets()).data);
  return {
    context,
    listedServer: async (serverId) => (await servers()).get(serverId),
    rulesets: (label) => rulesets().catch((err) => explainApiError(readContext(), `${label}: reading rule sets`, err, ['network:read'])),
  };
}
