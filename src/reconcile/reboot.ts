import { MAX_EARLIER_ANSWERS, type Plan, type ReconcileContext } from './context';
import { ensureOffered, MAX_BUSY_REFUSALS, readServer, readUntilPower, runAction, settle, type PowerTarget } from './power-operations';
import { ReconcileError } from './reconcile-error';
import { resourceLabel } from './resource-label';
import { isFinalOperationStatus, type ServerDetail } from '../api/schemas';
import type { RebootSpec } from '../contract/resource-document';

export interface RebootTiming {
  /** `plantimestamp()` recorded when the construct was first applied. */
  readonly firstPlannedAt?: string;
  /** `plantimestamp()` of this apply. */
  readonly plannedAt?: string;
}

/**
 * A reboot resource is created when the construct first appears (no reboot then) and re-created
 * each time its reboot triggers change (one reboot each time). Terraform gives a provisioner no old
 * values, so the bridge passes the plan time of the first apply and of this one: equal means first.
 */
export function isFirstCreation(timing: RebootTiming): boolean {
  if (!timing.firstPlannedAt || !timing.plannedAt) {
    throw new ReconcileError(
      'reboot: the bridge did not pass the plan timestamps, so a first creation cannot be told from a trigger change; nothing was changed',
      'synthesize the stack with this library\'s constructs, which set HOSTING_FIRST_PLANNED_AT and HOSTING_PLANNED_AT',
    );
  }
  return timing.firstPlannedAt === timing.plannedAt;
}

export async function planReboot(ctx: ReconcileContext, doc: RebootSpec, timing: RebootTiming): Promise<Plan> {
  const target: PowerTarget = { label: resourceLabel(doc), kind: 'reboot', serverId: doc.serverId, timeouts: doc.timeouts };
  if (isFirstCreation(timing)) {
    return { inSync: true, summary: `${target.label}: first creation, no reboot`, apply: async () => undefined };
  }
  return { inSync: false, summary: `${target.label}: reboot triggers changed (${doc.hard ? 'reset' : 'reboot'})`, apply: () => rebootServer(ctx, target, doc.hard) };
}

/**
 * One reboot per trigger change, never two. An outcome that is not confirmed (`outcome_unknown`,
 * `timed_out`, `action_timeout`) is reported as a warning, not retried: power stays `running`
 * either way, so a second reboot could not be ruled out. The context's intent keys the reboot: an
 * earlier run's answer under it (an interrupted apply re-run) counts when that reboot succeeded and
 * is not repeated; when it failed or was refused, this run reboots under a new attempt, walking past
 * every such answer (they are no tries of its own: MAX_EARLIER_ANSWERS). A reboot or reset already
 * in flight when this one comes to be sent is waited for and counts: it may be the one an
 * interrupted run sent under a key the API no longer remembers, and a second reboot is worse than
 * none. `because` ends the warning that says it rebooted, `assumed` the one that says an earlier
 * run did (what the caller took that run to be). Skipping the reboot (the server is not running) is
 * decided on a confirmed read, never on a cached one. `read` is the caller's read of the server
 * moments before, when it made one: a power state's apply, which converged from it.
 */
export async function rebootServer(
  ctx: ReconcileContext, target: PowerTarget, hard: boolean, because = 'its reboot triggers changed', assumed = '', read?: ServerDetail,
): Promise<void> {
  const action = hard ? 'reset' : 'reboot';
  const first = read ?? await readServer(ctx, target);
  const running = rebootInFlight(first);
  if (running) {
    await settle(ctx, target, () => false, first);
    ctx.warn(`${target.label}: a ${running.action} was already in progress (operation ${running.id}); it counts for this change, and the server was not rebooted again`);
    return;
  }
  let [busyRefusals, earlierAnswers] = [0, 0];
  for (let attempt = 1; ; attempt++) {
    let server = await settle(ctx, target, () => false, attempt === 1 ? first : undefined);
    if (server.power !== 'running') server = await readUntilPower(ctx, target, 'running');
    if (server.power !== 'running') {
      ctx.warn(`${target.label}: the server is ${server.power}, so it was not rebooted`);
      return;
    }
    await ensureOffered(ctx, target, action, server);
    const outcome = await runAction(ctx, target, action, { desired: 'rebooted', observed: server.power, attempt });
    if (outcome.kind === 'busy' && ++busyRefusals >= MAX_BUSY_REFUSALS) {
      throw new ReconcileError(`${target.label}: ${action} was not carried out after ${attempt} tries: ${outcome.message}`, 'another client keeps operating this server; apply again when it is done', outcome.apiError);
    }
    if (outcome.kind === 'earlier' && !outcome.succeeded && ++earlierAnswers > MAX_EARLIER_ANSWERS) {
      throw new ReconcileError(`${target.label}: ${action} met answers of earlier runs ${earlierAnswers} times: ${outcome.message}`, 'check the server in the control panel before applying again');
    }
    switch (outcome.kind) {
      case 'busy':
        ctx.log(`${target.label}: ${action} refused (${outcome.message}); waiting for the operation in progress, then deciding again`);
        continue;
      case 'earlier':
        if (outcome.succeeded) {
          ctx.warn(`${target.label}: rebooted by an earlier, interrupted run (${outcome.message}); not rebooted again${assumed}`);
          return;
        }
        ctx.log(`${target.label}: ${outcome.message}; rebooting under a new key`);
        continue;
      case 'unknown':
        ctx.warn(`${target.label}: the ${action} was sent but not confirmed (${outcome.message}); it is not repeated, to avoid a second reboot: check the server`);
        return;
      case 'failed':
        throw new ReconcileError(`${target.label}: ${action} failed: ${outcome.message}`, 'check the server in the control panel; the reboot is still to do, and the next apply tries it again', outcome.apiError);
      case 'succeeded': {
        const after = await readUntilPower(ctx, target, 'running');
        if (after.power !== 'running') {
          throw new ReconcileError(`${target.label}: ${action} succeeded but the server reports power ${after.power}`, 'check the server in the control panel');
        }
        (ctx.done ?? ctx.warn)(`${target.label}: rebooted (${action}), because ${because}`);
        return;
      }
    }
  }
}

/** The reboot or reset in flight on the server now, if any (sent by whom, the API does not say). */
function rebootInFlight(server: ServerDetail): ServerDetail['currentOperation'] | undefined {
  const op = server.currentOperation;
  return op && !isFinalOperationStatus(op.status) && (op.action === 'reboot' || op.action === 'reset') ? op : undefined;
}
