import { MAX_EARLIER_ANSWERS, type Plan, type ReconcileContext } from './context';
import { ensureOffered, MAX_BUSY_REFUSALS, readServer, readUntilPower, runAction, settle, type PowerTarget } from './power-operations';
import { ReconcileError } from './reconcile-error';
import { resourceLabel } from './resource-label';
import { sincePlanWarning } from './since-plan';
import { isFinalOperationStatus, type PowerAction, type ServerDetail } from '../api/schemas';
import type { PowerStateSpec } from '../contract/resource-document';

type DesiredPower = PowerStateSpec['desired']['state'];

/** The action that moves `power` towards `desired`, or undefined when already there. */
export function powerActionFor(desired: DesiredPower, power: ServerDetail['power'], stopMethod: PowerStateSpec['stopMethod']): PowerAction | undefined {
  if (power === desired) return undefined;
  return desired === 'running' ? 'start' : stopMethod;
}

const inFlight = (s: ServerDetail) => !!s.currentOperation && !isFinalOperationStatus(s.currentOperation.status);

/** A power plan whose apply answers with the server as it last read it: a reboot that follows starts from there. */
export interface PowerPlan extends Plan {
  readonly apply: () => Promise<ServerDetail>;
}

/**
 * Plans from `observed`, a fresh read the caller made moments before (the plan of this apply walk,
 * in this process), or from a read of its own. A power that moved away from `shown` (what the
 * reviewed plan showed) is named as it is set back. An action it then sends is confirmed by
 * reading again.
 */
export async function planPowerState(ctx: ReconcileContext, doc: PowerStateSpec, observed?: ServerDetail, shown?: DesiredPower): Promise<PowerPlan> {
  const target: PowerTarget = { label: resourceLabel(doc), kind: 'power_state', serverId: doc.serverId, timeouts: doc.timeouts };
  const desired = doc.desired.state;
  const server = observed ?? await readServer(ctx, target);
  if (!inFlight(server) && server.power === desired) {
    return { inSync: true, summary: `${target.label}: in sync (${desired})`, apply: async () => server };
  }
  const moved = !inFlight(server) && shown === desired && server.power !== 'unknown';
  if (moved) ctx.warn(sincePlanWarning(target.label, [{ name: 'state', shown: JSON.stringify(shown), actual: JSON.stringify(server.power), desired: JSON.stringify(desired), reached: false }])!);
  const action = powerActionFor(desired, server.power, doc.stopMethod);
  const summary = inFlight(server)
    ? `${target.label}: ${server.power} -> ${desired} (after operation ${server.currentOperation!.id} finishes)`
    : `${target.label}: ${server.power} -> ${desired}${action ? ` (${action})` : ''}`;
  return { inSync: false, summary, apply: () => converge(ctx, doc, target, server) };
}

/**
 * Acts, follows the operation, and confirms by reading the server again. `outcome_unknown` is
 * resolved by reading first: if the server got there it is success, otherwise one new attempt (a
 * new key). An offered action refused as unsupported means another operation got there first: wait
 * for it and decide again. A failed graceful shutdown falls back to power_off only when asked to.
 */
async function converge(ctx: ReconcileContext, doc: PowerStateSpec, target: PowerTarget, first: ServerDetail): Promise<ServerDetail> {
  const desired = doc.desired.state;
  const reached = (s: ServerDetail) => s.power === desired;
  let stopMethod = doc.stopMethod;
  let attempt = 1;
  let unknownOutcomes = 0;
  let busyRefusals = 0;
  let earlierAnswers = 0;
  let server = first;
  for (;;) {
    server = await settle(ctx, target, reached, server);
    const action = powerActionFor(desired, server.power, stopMethod);
    if (!action) {
      ctx.log(`${target.label}: ${desired} (confirmed)`);
      return server;
    }
    await ensureOffered(ctx, target, action, server);
    const outcome = await runAction(ctx, target, action, { desired, observed: server.power, attempt });
    if (outcome.kind === 'succeeded') {
      server = await readUntilPower(ctx, target, desired);
      if (!reached(server)) {
        throw new ReconcileError(`${target.label}: ${action} succeeded but the server reports power ${server.power}`, 'apply again to re-check; if it persists, report the operation to support');
      }
      ctx.log(`${target.label}: ${desired} (confirmed)`);
      return server;
    }
    if (outcome.kind === 'earlier') {
      // Keys of a re-run after an interrupted or failed apply meet that apply's answers: what it did
      // is read from the server, and what is still to do is done under a key this run has not used,
      // past every answer earlier runs left (MAX_EARLIER_ANSWERS).
      ctx.log(`${target.label}: ${outcome.message}; reading the server before deciding`);
      server = await settle(ctx, target, reached);
      if (reached(server)) {
        ctx.log(`${target.label}: ${desired} (confirmed)`);
        return server;
      }
      if (++earlierAnswers > MAX_EARLIER_ANSWERS) {
        throw new ReconcileError(`${target.label}: ${action} met answers of earlier runs ${earlierAnswers} times and the server is still ${server.power}`, 'check the server in the control panel before applying again');
      }
      attempt += 1;
      continue;
    }
    if (outcome.kind === 'busy') {
      if (++busyRefusals >= MAX_BUSY_REFUSALS) {
        throw new ReconcileError(`${target.label}: ${action} was refused ${busyRefusals} times although the API offered it: ${outcome.message}`, 'another client keeps operating this server; apply again when it is done', outcome.apiError);
      }
      ctx.log(`${target.label}: ${action} refused (${outcome.message}); waiting for the operation in progress, then deciding again`);
      attempt += 1;
      server = await readServer(ctx, target);
      continue;
    }
    if (outcome.kind === 'unknown') {
      ctx.log(`${target.label}: ${action} outcome unknown (${outcome.message}); reading the server before deciding`);
      server = await settle(ctx, target, reached);
      if (!reached(server)) server = await readUntilPower(ctx, target, desired);
      if (reached(server)) {
        ctx.log(`${target.label}: ${desired} (confirmed after an unknown outcome)`);
        return server;
      }
      if (++unknownOutcomes >= 2) {
        throw new ReconcileError(`${target.label}: ${action} twice ended with an unknown outcome and the server is still ${server.power}`, 'check the server in the control panel before applying again');
      }
      attempt += 1;
      continue;
    }
    if (action === 'shutdown' && doc.forceStopFallback) {
      ctx.log(`${target.label}: graceful shutdown failed (${outcome.message}); forcing power_off as configured`);
      stopMethod = 'power_off';
      attempt = 1;
      server = await readServer(ctx, target);
      continue;
    }
    throw new ReconcileError(
      `${target.label}: ${action} failed: ${outcome.message}`,
      action === 'shutdown' ? 'check the operating system, or set forceStopFallback (force_stop_fallback in HCL) to power off when a graceful shutdown fails' : 'check the server in the control panel, then apply again',
      outcome.apiError,
    );
  }
}
