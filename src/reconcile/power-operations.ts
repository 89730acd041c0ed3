import { explainApiError, isEarlierAnswer, keyFor, readUntil, type ReconcileContext } from './context';
import { ReconcileError } from './reconcile-error';
import { readServerDetail } from './servers';
import { HostingApiError, isHostingApiError } from '../api/errors';
import { isFinalOperationStatus, scopesForAction, type PowerAction, type ServerDetail } from '../api/schemas';
import type { PowerTimeouts } from '../contract/resource-document';

export type Readiness =
  | { readonly kind: 'ready' }
  | { readonly kind: 'wait'; readonly reason: string }
  | { readonly kind: 'fail'; readonly reason: string; readonly hint: string };

/**
 * Whether a power decision can be made on this server now. Never acts while an operation is in
 * flight, while the server is being set up, or while its power state is unknown: an action then
 * could run twice or against the wrong state.
 */
export function readiness(server: ServerDetail): Readiness {
  const op = server.currentOperation;
  if (op && !isFinalOperationStatus(op.status)) {
    return { kind: 'wait', reason: `operation ${op.id} (${op.action}) is ${op.status}` };
  }
  switch (server.status) {
    case 'provisioning':
    case 'building':
      return { kind: 'wait', reason: `the server is ${server.status}` };
    case 'suspended':
      return { kind: 'fail', reason: 'the server is suspended', hint: 'resolve the suspension in the control panel, then apply again' };
    case 'failed':
      return { kind: 'fail', reason: 'the server is in status failed', hint: 'repair or reinstall the server in the control panel, then apply again' };
    case 'terminated':
      return { kind: 'fail', reason: 'the server is terminated', hint: 'remove this resource or point it at another server' };
    default:
      return server.power === 'unknown' ? { kind: 'wait', reason: 'its power state is unknown' } : { kind: 'ready' };
  }
}

export interface PowerTarget {
  readonly label: string;
  readonly kind: 'power_state' | 'reboot';
  readonly serverId: string;
  readonly timeouts: PowerTimeouts;
}

export function readServer(ctx: ReconcileContext, target: PowerTarget): Promise<ServerDetail> {
  return readServerDetail(ctx, target.serverId, target.label);
}

/** Re-reads (bounded) until the server shows `power`; a shared cache must not decide a power action. */
export function readUntilPower(ctx: ReconcileContext, target: PowerTarget, power: ServerDetail['power']): Promise<ServerDetail> {
  return readUntil(ctx, target.label, () => readServer(ctx, target), (s) => s.power === power, (s) => `power ${s.power}`);
}

/**
 * Reads until the server is `done` (with no operation in flight) or ready for a decision; waits,
 * bounded by `readySeconds`, through provisioning, unknown power and operations in progress.
 */
export async function settle(
  ctx: ReconcileContext,
  target: PowerTarget,
  done: (s: ServerDetail) => boolean,
  first?: ServerDetail,
): Promise<ServerDetail> {
  const deadline = Math.min(ctx.now() + target.timeouts.readySeconds * 1000, ctx.deadlineAt);
  let server = first ?? (await readServer(ctx, target));
  let interval = 1_000;
  for (;;) {
    const state = readiness(server);
    const inFlight = state.kind === 'wait' && server.currentOperation && !isFinalOperationStatus(server.currentOperation.status);
    if (!inFlight && done(server)) return server;
    if (state.kind === 'ready') return server;
    if (state.kind === 'fail') throw new ReconcileError(`${target.label}: ${state.reason}; nothing was changed`, state.hint);
    const left = deadline - ctx.now();
    if (left <= 0) {
      throw new ReconcileError(`${target.label}: still waiting after ${target.timeouts.readySeconds}s: ${state.reason}; nothing was changed`, 'apply again later, or raise readyTimeoutSeconds (ready_timeout_seconds in HCL)');
    }
    ctx.log(`${target.label}: waiting: ${state.reason}`);
    if (inFlight) {
      await ctx.client.waitForOperation(target.serverId, server.currentOperation!.id, { timeoutMs: left }).catch((err) => {
        if (!isHostingApiError(err, 'deadline_exceeded')) throw err;
      });
    } else {
      await ctx.sleep(Math.min(interval, left));
      interval = Math.min(interval * 2, 10_000);
    }
    server = await readServer(ctx, target);
  }
}

/** The API lists what this token may run now; when the action is missing, say why before trying. */
export async function ensureOffered(ctx: ReconcileContext, target: PowerTarget, action: PowerAction, server: ServerDetail): Promise<void> {
  if (server.actions.includes(action)) return;
  const what = `${target.label}: ${action} is not available`;
  if (server.accessRole === 'secondary') {
    throw new ReconcileError(`${what}: the server is shared with this account and is read-only for it; nothing was changed`, 'manage its power from the owning account');
  }
  const needed = scopesForAction(action);
  const info = await ctx.client.connect().then((r) => r.data, () => undefined);
  const missing = info ? needed.filter((s) => !info.token.scopes.includes(s)) : [];
  if (missing.length) {
    throw new ReconcileError(
      `${what}: token ${JSON.stringify(info!.token.name)} lacks the scope ${missing.join(', ')} (it has ${info!.token.scopes.join(', ') || 'none'}); nothing was changed`,
      // Only a token that can start but not stop may usefully keep managing starts.
      `create a token with ${needed.join(' and ')} in the control panel's API section${(action === 'shutdown' || action === 'power_off') && !missing.includes('servers:power') ? ', or manage only starts with this token' : ''}`,
    );
  }
  throw new ReconcileError(
    `${what} for a server that is ${server.status} and ${server.power} (the API offers: ${server.actions.join(', ') || 'nothing'}); nothing was changed`,
    'check the server in the control panel, then apply again',
  );
}

export type ActionOutcome =
  | { readonly kind: 'succeeded' }
  | { readonly kind: 'failed'; readonly message: string; readonly apiError?: HostingApiError }
  /**
   * Not confirmed: `outcome_unknown`, `timed_out` or 504 `action_timeout` (spec 3.2: "no
   * confirmation in time", not "did not happen"), or a 5xx or 429 the API stored as the key's first
   * answer, this run's or an earlier one's: the action may have run after it was recorded. The
   * server is to be read before acting again; a reboot, which no read confirms, is not repeated.
   */
  | { readonly kind: 'unknown'; readonly message: string }
  /** 409 `action_unsupported` although `actions` offered it: another operation got there first. */
  | { readonly kind: 'busy'; readonly message: string; readonly apiError: HostingApiError }
  /**
   * The stored answer of an earlier call with this key (an interrupted apply's, say), replayed on
   * the first send: it tells what that call did, never what this one did. `succeeded` says whether
   * that action succeeded; a refusal or `action_failed` says it did not run.
   */
  | { readonly kind: 'earlier'; readonly message: string; readonly succeeded: boolean };

/** Refusals of an offered action before another decision is made, e.g. two resources racing on one server. */
export const MAX_BUSY_REFUSALS = 3;

/** The other way to reboot: a reboot intent sent one way is found under its key by the other. */
const OTHER_REBOOT: Partial<Record<PowerAction, PowerAction>> = { reboot: 'reset', reset: 'reboot' };

/**
 * POSTs one action with its deterministic key and follows its operation to a final status.
 * A lost answer is retried by the client with the same key, so the API replays instead of acting twice.
 * A reboot's key is the same whether it resets or reboots: an interrupted reboot run again after
 * `hard_reboot` was edited meets its first send (422 `idempotency_key_reused`), whose stored
 * answer, asked for the way it was sent, tells what it did. One power cycle per intent.
 */
export async function runAction(
  ctx: ReconcileContext,
  target: PowerTarget,
  action: PowerAction,
  keyParts: { readonly desired: unknown; readonly observed: unknown; readonly attempt: number },
  sentOtherWay = false,
): Promise<ActionOutcome> {
  const step = target.kind === 'reboot' ? 'reboot' : action;
  const key = keyFor(ctx, { kind: target.kind, serverId: target.serverId, step, ...keyParts });
  let operationId: string;
  let earlier: boolean;
  try {
    const res = await ctx.client.runAction(target.serverId, action, key);
    operationId = res.data.id;
    earlier = isEarlierAnswer(res);
    if (!earlier) ctx.accepted?.();
    ctx.log(`${target.label}: ${action} accepted as operation ${operationId}${res.replayed ? ` (replayed${earlier ? ': the answer of an earlier run' : ''})` : ''} (request id ${res.requestId ?? 'n/a'})`);
  } catch (err) {
    const earlierRun = isHostingApiError(err) && isEarlierAnswer(err);
    const by = earlierRun ? ' by an earlier run' : '';
    if (isHostingApiError(err) && err.replayed && (err.status === 429 || (err.status >= 500 && err.code !== 'action_failed'))) {
      // The stored first answer of this key, whichever run sent it: the action may have run after it was recorded.
      return { kind: 'unknown', message: `the API replayed ${err.status} ${err.code} for this key${by} (request id ${err.requestId ?? 'n/a'})` };
    }
    if (isHostingApiError(err) && earlierRun) {
      return { kind: 'earlier', succeeded: false, message: `the API replayed ${err.status} ${err.code} stored for this key${by} (request id ${err.requestId ?? 'n/a'})` };
    }
    if (isHostingApiError(err, 'outcome_unknown', 'action_timeout')) return { kind: 'unknown', message: `${err.status} ${err.code}: ${err.detail} (request id ${err.requestId ?? 'n/a'})` };
    if (isHostingApiError(err, 'action_failed')) return { kind: 'failed', message: err.detail, apiError: err };
    if (isHostingApiError(err, 'action_unsupported')) return { kind: 'busy', message: err.detail, apiError: err };
    const other = OTHER_REBOOT[action];
    if (target.kind === 'reboot' && other && !sentOtherWay && isHostingApiError(err, 'idempotency_key_reused')) {
      ctx.log(`${target.label}: this reboot was sent before as ${other} under the same key; following that one`);
      return runAction(ctx, target, other, keyParts, true);
    }
    return explainApiError(ctx, `${target.label}: ${action}`, err, scopesForAction(action));
  }
  let operation;
  try {
    operation = await ctx.client.waitForOperation(target.serverId, operationId, { timeoutMs: target.timeouts.operationSeconds * 1000 });
  } catch (err) {
    if (isHostingApiError(err, 'deadline_exceeded')) {
      throw new ReconcileError(
        `${target.label}: operation ${operationId} (${action}) did not finish within ${target.timeouts.operationSeconds}s`,
        'apply again: the next run waits for the operation in progress and does not repeat the action',
        err,
      );
    }
    if (isHostingApiError(err, 'not_found')) {
      // The API lost track of the operation (it restarted, say): the server itself tells what happened.
      return { kind: 'unknown', message: `operation ${operationId} is no longer known to the API (request id ${err.requestId ?? 'n/a'})` };
    }
    return explainApiError(ctx, `${target.label}: following operation ${operationId}`, err, ['servers:read']);
  }
  const message = `operation ${operationId} ${operation.status}: ${operation.message ?? operation.status}`;
  const requested = operation.requestedAt ? ` (requested at ${operation.requestedAt})` : '';
  if (earlier) return { kind: 'earlier', succeeded: operation.status === 'succeeded', message: `${message}${requested}, the action of an earlier run` };
  switch (operation.status) {
    case 'succeeded':
      return { kind: 'succeeded' };
    case 'outcome_unknown':
    case 'timed_out':
      return { kind: 'unknown', message };
    default:
      return { kind: 'failed', message };
  }
}
