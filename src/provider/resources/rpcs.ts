import { RESOURCES } from '.';
import { atApply, atPlan, diagnosticOf, warningsOf, type Diagnostic } from '../diagnostics';
import { warningOfEffect } from './effects';
import { identityData, identityFrom, identitySchema, IDENTITY_VERSION, importIdOf } from './identity';
import { documentFromBridge } from './moved-from-bridge';
import { decodePrivate, encodePrivate } from './private-state';
import { checkServerExists, saidAtPlan, type ObjectValue, type ProviderResource } from './resource';
import { lifeOfBridge } from './resource-life';
import type { ProviderRpc } from '../plugin/protocol';
import { kindNamed, objectIn, type RpcEnvironment, type RpcHandler } from '../plugin/rpc';
import { decodeDynamic, encodeValue, type Value } from '../plugin/values';
import type { Warning } from '../session';

/** The schema version every stored state of this provider carries; UpgradeResourceState migrates from older ones. */
export const STATE_VERSION = 0;

type ResourceRpc = Extract<
  ProviderRpc,
  | 'ValidateResourceConfig' | 'UpgradeResourceState' | 'ReadResource' | 'PlanResourceChange' | 'ApplyResourceChange' | 'ImportResourceState' | 'MoveResourceState'
  | 'GetResourceIdentitySchemas' | 'UpgradeResourceIdentity'
>;

export const resourceOf = (typeName: string): ProviderResource => kindNamed(RESOURCES, typeName, 'resource type');

const objectOf = (value: { msgpack?: Uint8Array; json?: Uint8Array } | undefined) => decodeDynamic(value) as ObjectValue | null;
const dynamic = (value: ObjectValue | null) => ({ msgpack: encodeValue(value) });

/** The resource RPCs of tfplugin6 over the provider's resource types: decode, call the resource, encode. */
export function resourceRpcs({ session: sessionOf, scrub }: RpcEnvironment): Record<ResourceRpc, RpcHandler> {
  const warned = (warnings: readonly Warning[]) => warningsOf(warnings, scrub);
  const failing = (err: unknown, warnings: readonly Warning[] = []) => [...warned(warnings), diagnosticOf(err, scrub)];
  /** A planned removal that leaves things in place says so in the plan. */
  const leavesInPlace = async (req: Record<string, any>): Promise<Diagnostic[]> => {
    const prior = objectOf(req.prior_state);
    if (!prior) return [];
    const session = sessionOf('plan');
    try {
      const left = await resourceOf(req.type_name).leftInPlace(session, prior, decodePrivate(req.prior_private));
      return [...warned(session.warnings), ...(left ? [warningOfEffect({ kind: 'left in place', left })] : [])];
    } catch (err) {
      return failing(err, session.warnings);
    }
  };
  return {
    ValidateResourceConfig: (req) => ({ diagnostics: resourceOf(req.type_name).validate(objectIn(req.config)) }),
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
      const state = objectOf(req.current_state);
      if (!state) return { new_state: dynamic(null) };
      const session = sessionOf('plan');
      try {
        const resource = resourceOf(req.type_name);
        const fresh = await resource.read(session, state, decodePrivate(req.private));
        const identity = identityData(resource, fresh.state);
        const diagnostics = warned(session.warnings);
        return { new_state: dynamic(fresh.state), private: encodePrivate(fresh.private), new_identity: identity, diagnostics };
      } catch (err) {
        return { new_state: req.current_state, private: req.private, diagnostics: failing(err, session.warnings).map(atPlan) };
      }
    },
    PlanResourceChange: async (req) => {
      const proposed = objectOf(req.proposed_new_state);
      if (!proposed) return { planned_state: dynamic(null), planned_private: req.prior_private, diagnostics: (await leavesInPlace(req)).map(atPlan) };
      const session = sessionOf('plan');
      const resource = resourceOf(req.type_name);
      try {
        const change = await resource.plan(session, objectOf(req.prior_state), objectIn(req.config), decodePrivate(req.prior_private));
        return {
          planned_state: dynamic(change.planned),
          planned_identity: identityData(resource, change.planned),
          requires_replace: change.requiresReplace.map((name) => ({ steps: [{ attribute_name: name }] })),
          planned_private: encodePrivate(change.private),
          diagnostics: [...warned(session.warnings), ...saidAtPlan(change)].map(atPlan),
        };
      } catch (err) {
        return { diagnostics: failing(err, session.warnings).map(atPlan) };
      }
    },
    ApplyResourceChange: async (req) => {
      const resource = resourceOf(req.type_name);
      const prior = objectOf(req.prior_state);
      const planned = objectOf(req.planned_state);
      const priv = decodePrivate(req.planned_private);
      const session = sessionOf('apply');
      try {
        if (!planned) {
          // Removal: the settings are retained (nothing requested) unless the resource restores them.
          if (prior) await resource.destroy(session, prior, priv);
          return { new_state: dynamic(null), diagnostics: warned(session.warnings) };
        }
        const applied = await resource.apply(session, { prior, planned, config: objectIn(req.config), private: priv });
        const diagnostics = applied.error === undefined ? warned(session.warnings) : failing(applied.error, session.warnings);
        const identity = identityData(resource, applied.state);
        const told = diagnostics.map(atApply);
        return { new_state: dynamic(applied.state), private: encodePrivate(applied.private), new_identity: identity, diagnostics: told };
      } catch (err) {
        return { new_state: req.prior_state, private: req.planned_private, diagnostics: failing(err, session.warnings).map(atApply) };
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
      const missing = await checkServerExists(session, null, state).catch((err: unknown) => [diagnosticOf(err, scrub)]);
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
        return { diagnostics: failing(err) };
      }
    },
  };
}
