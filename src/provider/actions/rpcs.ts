import { ACTION_BUDGET_SECONDS, ACTIONS, type ProviderAction } from '.';
import { diagnosticOf, warningsOf } from '../diagnostics';
import type { ProviderRpc } from '../plugin/protocol';
import type { RpcEnvironment, RpcHandler } from '../plugin/rpc';
import { decodeDynamic } from '../plugin/values';
import type { ObjectValue } from '../resources/resource';

type ActionRpc = Extract<ProviderRpc, 'ValidateActionConfig' | 'PlanAction' | 'InvokeAction'>;

function actionOf(typeName: string): ProviderAction {
  const action = ACTIONS.get(typeName);
  if (!action) throw new Error(`unknown action type ${typeName}`);
  return action;
}

const configOf = (req: Record<string, any>) => (decodeDynamic(req.config) ?? {}) as ObjectValue;

/** The actions' RPCs: each invocation under keys of its own, its log lines as Terraform's progress events. */
export function actionRpcs({ session: sessionOf, scrub }: RpcEnvironment): Record<ActionRpc, RpcHandler> {
  return {
    ValidateActionConfig: (req) => ({ diagnostics: actionOf(req.type_name).validate(configOf(req)) }),
    PlanAction: async (req) => {
      const action = actionOf(req.action_type);
      const config = configOf(req);
      const invalid = action.validate(config);
      return { diagnostics: invalid.length ? invalid : await action.plan(sessionOf('plan'), config) };
    },
    InvokeAction: async (req, emit) => {
      const action = actionOf(req.action_type);
      const config = configOf(req);
      const session = sessionOf('apply');
      const base = session.context(ACTION_BUDGET_SECONDS);
      const progress = (line: string) => emit({ progress: { message: scrub(line) } });
      // What the action was asked to do, done, is progress; a warning is kept for what was not asked (a reboot skipped).
      const log = (line: string) => (base.log(line), progress(line));
      const ctx = { ...base, log, done: log };
      let failure: unknown;
      try {
        await action.invoke(ctx, config);
      } catch (err) {
        failure = err;
      }
      const warnings = warningsOf(session.warnings, scrub);
      emit({ completed: { diagnostics: failure === undefined ? warnings : [...warnings, diagnosticOf(failure, scrub)] } });
      return {};
    },
  };
}
