import { RESOURCES } from '.';
import { atApply, atPlan, diagnosticOf, ERROR, type Diagnostic } from '../diagnostics';
import { identityData, identityFrom, identitySchema, IDENTITY_VERSION, importIdOf } from './identity';
import { documentFromBridge } from './moved-from-bridge';
import { plannedWithoutReads } from './plan-without-reads';
import { decodePrivate, encodePrivate } from './private-state';
import { checkServerExists, warningOf, type ObjectValue, type ProviderResource } from './resource';
import { lifeOfBridge } from './resource-life';
import type { ProviderRpc } from '../plugin/protocol';
import type { RpcEnvironment, RpcHandler } from '../plugin/rpc';
import { decodeValue, encodeValue, type Value } from '../plugin/values';
import { refusalsSaid } from '../run/refusals';
import { changeOf } from '../run-notes';

/** The schema version every stored state of this provider carries; UpgradeResourceState migrates from older ones. */
export const STATE_VERSION = 0;

type ResourceRpc = Extract<
  ProviderRpc,
  | 'ValidateResourceConfig' | 'UpgradeResourceState' | 'ReadResource' | 'PlanResourceChange' | 'ApplyResourceChange' | 'ImportResourceState' | 'MoveResourceState'
  | 'GetResourceIdentitySchemas' | 'UpgradeResourceIdentity'
>;

export function resourceOf(typeName: string): ProviderResource {
  const resource = RESOURCES.get(typeName);
  if (!resource) throw new Error(`unknown resource type ${typeName}`);
  return resource;
}

const objectOf = (value: { msgpack?: Uint8Array } | undefined) => decodeValue(value?.msgpack) as ObjectValue | null;
const dynamic = (value: ObjectValue | null) => ({ msgpack: encodeValue(value) });

/** The resource RPCs of tfplugin6 over the provider's resource types. */
export function resourceRpcs({ session: sessionOf, scrub, walk }: RpcEnvironment): Record<ResourceRpc, RpcHandler> {
  const failing = (err: unknown, warnings: readonly string[] = []) => ({ diagnostics: [...warningsOf(warnings), diagnosticOf(err, scrub)] });
  // A refusal of the whole run: said in full once a process, then as the walk allows (run/refusals.ts).
  const said = refusalsSaid();
  const hasError = (diagnostics: readonly Diagnostic[]) => diagnostics.some((d) => d.severity === ERROR);
  const warningsOf = (warnings: readonly string[]): Diagnostic[] => warnings.map((w) => warningOf(scrub(w)));
  /** A planned removal that leaves things in place, noted for its apply's one summary (no request). */
  const noteLeftInPlace = (req: Record<string, any>) => {
    const prior = objectOf(req.prior_state);
    const left = prior && resourceOf(req.type_name).leftInPlace(prior, decodePrivate(req.prior_private));
    if (!left) return;
    try {
      sessionOf('plan').plannedToLeave(left);
    } catch {
      // An unconfigured provider: the apply says each removal as it comes.
    }
  };
  return {
    ValidateResourceConfig: (req) => ({ diagnostics: resourceOf(req.type_name).validate(objectOf(req.config) ?? {}) }),
    UpgradeResourceState: (req) => {
      const resource = resourceOf(req.type_name);
      if (Number(req.version ?? 0) > STATE_VERSION) {
        throw new Error(`the state of this ${req.type_name} was written by a newer version of the provider (schema version ${req.version}); use that version or newer`);
      }
      // Version 0 is the only one so far: attributes the schema no longer has are dropped, new ones are null.
      const stored = JSON.parse(Buffer.from(req.raw_state?.json ?? '{}').toString('utf8')) as ObjectValue;
      const attributes = resource.schema.block.attributes.map((a) => a.name);
      const upgraded = Object.fromEntries(attributes.map((name) => [name, (stored[name] ?? null) as Value]));
      return { upgraded_state: dynamic(upgraded) };
    },
    ReadResource: async (req) => {
      // The run's parts (design guide, "The provider's run"): walk (a refresh proves a plan walk), shared reads, ledger (markRead), refusals.
      walk.refreshed();
      const state = objectOf(req.current_state);
      if (!state) return { new_state: dynamic(null) };
      const session = sessionOf('plan');
      try {
        const resource = resourceOf(req.type_name);
        const fresh = await resource.read(session, state, decodePrivate(req.private));
        const identity = identityData(resource, fresh.state);
        const diagnostics = warningsOf(session.warnings);
        const priv = encodePrivate(session.markRead(fresh.private));
        return { new_state: dynamic(fresh.state), private: priv, new_identity: identity, diagnostics };
      } catch (err) {
        // Said by another resource: this one keeps its state, and the plan fails on that error.
        const { diagnostics } = said.sayOnce(failing(session.reported(err), session.warnings).diagnostics, walk.plansOnly());
        return { new_state: req.current_state, private: req.private, diagnostics };
      }
    },
    PlanResourceChange: async (req) => {
      // Parts: shared reads, ledger (notes), said-once, forecast, policy, refusals with the walk's proof; left-in-place for a removal.
      const proposed = objectOf(req.proposed_new_state);
      if (!proposed) {
        noteLeftInPlace(req);
        return { planned_state: dynamic(null), planned_private: req.prior_private };
      }
      const session = sessionOf('plan');
      const resource = resourceOf(req.type_name);
      const config = objectOf(req.config) ?? {};
      const planning = changeOf(req.type_name, resource.identity.attributes.map((a) => config[a.name]));
      try {
        const prior = objectOf(req.prior_state);
        const change = await resource.plan(session, prior, config, decodePrivate(req.prior_private));
        const reported = [...warningsOf(session.warnings), ...(change.diagnostics ?? [])];
        // The walk's proof reads the run's records: asked only of an answer that carries a refusal of the run.
        const told = said.sayOnce(reported, reported.some((d) => d.once !== undefined) && walk.plansAnew(planning));
        const diagnostics = told.diagnostics.map(atPlan);
        // An apply of this run may plan it again (run/walk.ts).
        if (!hasError(diagnostics)) walk.planned(planning);
        return {
          planned_state: dynamic(change.planned),
          planned_identity: identityData(resource, change.planned),
          requires_replace: change.requiresReplace.map((name) => ({ steps: [{ attribute_name: name }] })),
          planned_private: encodePrivate(change.private),
          diagnostics,
        };
      } catch (err) {
        const told = said.sayOnce(failing(session.reported(err), session.warnings).diagnostics, walk.plansAnew(planning));
        const diagnostics = told.diagnostics.map(atPlan);
        if (!told.withheld || hasError(diagnostics)) return { diagnostics };
        // Said by another resource in a plan walk: this one plans what it can without reading, and the plan fails on that error.
        const { planned, requiresReplace } = plannedWithoutReads(resource, objectOf(req.prior_state), config);
        const replaces = requiresReplace.map((name) => ({ steps: [{ attribute_name: name }] }));
        return { planned_state: dynamic(planned), requires_replace: replaces, planned_private: req.prior_private, diagnostics };
      }
    },
    ApplyResourceChange: async (req) => {
      // Parts: ledger (trusted reads, planOfThisRun), policy, refusals, left-in-place; shared reads forgotten after a power write.
      const resource = resourceOf(req.type_name);
      const prior = objectOf(req.prior_state);
      const planned = objectOf(req.planned_state);
      const priv = decodePrivate(req.planned_private);
      const session = sessionOf('apply');
      const told = (diagnostic: Diagnostic) => atApply(diagnostic, session.planOfThisRun());
      try {
        if (!planned) {
          // Removal: the settings are retained (nothing requested) unless the resource restores them.
          if (prior) await resource.destroy(session, prior, priv);
          return { new_state: dynamic(null), diagnostics: warningsOf(session.warnings) };
        }
        const applied = await resource.apply(session, { prior, planned, config: objectOf(req.config) ?? {}, private: priv });
        const failed = applied.error !== undefined;
        const reported = failed ? failing(session.reported(applied.error), session.warnings).diagnostics : warningsOf(session.warnings);
        const outcome = { diagnostics: said.sayOnce(reported, false).diagnostics.map(told) };
        const identity = identityData(resource, applied.state);
        return { new_state: dynamic(applied.state), private: encodePrivate(applied.private), new_identity: identity, ...outcome };
      } catch (err) {
        if (!planned) session.removalFailed();
        const { diagnostics } = said.sayOnce(failing(session.reported(err), session.warnings).diagnostics, false);
        return { new_state: req.prior_state, private: req.planned_private, diagnostics: diagnostics.map(told) };
      } finally {
        if (resource.changesServerList) session.forgetServerList();
      }
    },
    ImportResourceState: async (req) => {
      // Parts: shared reads (the server list), refusals.
      const resource = resourceOf(req.type_name);
      // An `import` block names the object by `id`, or (Terraform 1.12+) by its identity.
      const identity = identityFrom(resource, req.identity);
      const id = identity ? importIdOf(resource, identity) : req.id;
      const state = resource.importState(id);
      // A server the account does not have: said here with the closest ids (one list read), not as Terraform's "non-existent remote object".
      const session = sessionOf('plan');
      // An import is never an apply's re-plan: a refusal said by another resource is left to that one.
      const refused = (err: unknown) => said.sayOnce([diagnosticOf(session.reported(err), scrub)], true).diagnostics;
      const missing = await checkServerExists(session, null, state).catch(refused);
      if (missing.length) return { diagnostics: missing.map((d) => ({ ...d, attribute: undefined, summary: `cannot import ${JSON.stringify(id)} as ${req.type_name}: ${d.summary}` })) };
      const imported = {
        type_name: req.type_name, state: dynamic(state), private: encodePrivate({}), identity: identityData(resource, state),
      };
      return { imported_resources: [imported] };
    },
    GetResourceIdentitySchemas: () => ({ identity_schemas: Object.fromEntries([...RESOURCES.values()].map((r) => [r.typeName, identitySchema(r)])) }),
    UpgradeResourceIdentity: (req) => {
      const resource = resourceOf(req.type_name);
      if (Number(req.version ?? 0) > IDENTITY_VERSION) {
        throw new Error(`the identity of this ${req.type_name} was written by a newer version of the provider (identity version ${req.version}); use that version or newer`);
      }
      const stored = identityFrom(resource, { identity_data: { json: req.raw_identity?.json } }) ?? {};
      return { upgraded_identity: { identity_data: { msgpack: encodeValue(stored) } } };
    },
    MoveResourceState: (req) => {
      try {
        const target = resourceOf(req.target_type_name);
        const document = documentFromBridge({
          providerAddress: req.source_provider_address,
          typeName: req.source_type_name,
          stateJson: Buffer.from(req.source_state?.json ?? '{}').toString('utf8'),
          targetTypeName: req.target_type_name,
        });
        const state = target.stateFromBridge(document, lifeOfBridge(req.source_state?.json));
        return { target_state: dynamic(state), target_private: encodePrivate({}), target_identity: identityData(target, state) };
      } catch (err) {
        return failing(err);
      }
    },
  };
}
