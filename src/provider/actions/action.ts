import { scopesForAction, type PowerAction } from '../../api/schemas';
import { POWER_DEFAULTS } from '../../contract/resource-document';
import type { ReconcileContext } from '../../reconcile/context';
import { runBudgetSeconds } from '../../reconcile/plan-resource';
import { actionRefusal } from '../../reconcile/preflight';
import type { Diagnostic } from '../diagnostics';
import { checkServerExists, checkWrite, refusalAt, type ObjectValue } from '../resources/resource';
import { schemaOf } from '../schema';
import type { ProviderSession } from '../session';

/*
 * Actions (Terraform 1.14+): `terraform apply -invoke=action.<type>.<name>`, or an `action_trigger`
 * of a resource's lifecycle. Imperative beside the declarative PowerState, with its rules: each
 * invocation acts at most once (its own idempotency keys), follows the operation to its final
 * status, reads the server before deciding after an unknown outcome, never reboots a server that is
 * not running, and is paced with every other action of the token.
 */

export interface ProviderAction {
  readonly typeName: string;
  readonly schema: ReturnType<typeof schemaOf>;
  validate(config: ObjectValue): Diagnostic[];
  /** What the plan can tell: the server, the token's scopes, whether the API would refuse. */
  plan(session: ProviderSession, config: ObjectValue): Promise<Diagnostic[]>;
  invoke(ctx: ReconcileContext, config: ObjectValue): Promise<void>;
}

export const SERVER_ID = { name: 'server_id', type: 'string', required: true, description: 'The server to act on (`vps_…` or `ded_…`).' } as const;
export const TIMEOUTS = { readySeconds: POWER_DEFAULTS.readySeconds, operationSeconds: POWER_DEFAULTS.operationSeconds };

/** The plan-time refusals of one power action on the server the configuration names. */
export async function actionDiagnostics(
  session: ProviderSession, config: ObjectValue, label: string, action: (power: string) => PowerAction | undefined,
): Promise<Diagnostic[]> {
  if (typeof config.server_id !== 'string') return [];
  const missing = await checkServerExists(session, null, config);
  if (missing.length) return missing;
  const server = await session.serverDetail(config.server_id);
  const act = action(server.power);
  if (!act) return [];
  const refused = await checkWrite(session, config.server_id, label, scopesForAction(act), act, 'action');
  if (refused.length) return refused;
  const refusal = actionRefusal(label, server, act, session.token(), 'action');
  return refusal ? [refusalAt(undefined, refusal)] : [];
}

/** An invocation's time budget, as PowerState's run has it (it depends on the timeouts only). */
export const ACTION_BUDGET_SECONDS = runBudgetSeconds({ kind: 'reboot', serverId: '', hard: false, timeouts: TIMEOUTS });
