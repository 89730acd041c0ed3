import { ACTION_BUDGET_SECONDS, ACTIONS, type ProviderAction } from '.';
import { diagnosticOf, warningsOf } from '../diagnostics';
import type { ProviderRpc } from '../plugin/protocol';
import { kindNamed, objectIn, type RpcEnvironment, type RpcHandler } from '../plugin/rpc';

type ActionRpc = Extract<ProviderRpc, 'ValidateActionConfig' | 'PlanAction' | 'InvokeAction'>;

const actionOf = (typeName: string): ProviderAction => kindNamed(ACTIONS, typeName, 'action type');

/** The actions' RPCs: each invocation under keys of its own, its log lines as Terraform's progress events. */
export function actionRpcs({ session: sessionOf, scrub }: RpcEnvironment): Record<ActionRpc, RpcHandler> {
  return {
    ValidateActionConfig: (req) => ({ diagnostics: actionOf(req.type_name).validate(objectIn(req.config)) }),
    PlanAction: async (req) => {
      const action = actionOf(req.action_type);
      const config = objectIn(req.config);
      const invalid = action.validate(config);
      return { diagnostics: invalid.length ? invalid : await action.plan(sessionOf('plan'), config) };
    },
    InvokeAction: async (req, emit) => {
      const action = actionOf(req.action_type);
      const config = objectIn(req.config);
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
