import { isHostingApiError } from '../../api/errors';
import type { FirewallDocument } from '../../contract/resource-document';
import { explainApiError, readFresh, type ReconcileContext } from '../../reconcile/context';
import { planFirewall, resolveRulesets } from '../../reconcile/firewall';
import { resourceDocumentSchema } from '../../reconcile/resource-document-schema';
import { errorAt, type Diagnostic } from '../diagnostics';
import { schemaOf } from '../schema';
import { UNKNOWN, type Value } from '../values';
import type { ObjectValue, PlannedChange, ProviderResource } from './resource';

const isKnown = (v: Value): boolean => v !== UNKNOWN && (!Array.isArray(v) || v.every(isKnown));
const sortedUnique = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
const label = (serverId: Value) => `firewall ${String(serverId)}`;

/** `hosting_server_firewall`: the firewall of one VPS. Only the attributes set are managed. */
export const serverFirewallResource: ProviderResource = {
  typeName: 'hosting_server_firewall',
  schema: schemaOf('The firewall of one VPS: on or off, and which rule sets apply. Only the attributes set are managed.', [
    { name: 'id', type: 'string', computed: true, description: 'The server id.' },
    { name: 'server_id', type: 'string', required: true, description: 'A VPS id (vps_…). Changing it replaces the resource.' },
    { name: 'enabled', type: 'bool', optional: true, computed: true, description: 'Whether the firewall is on.' },
    { name: 'rulesets', type: ['set', 'number'], optional: true, computed: true, description: 'Ids of the applied rule sets, with those of ruleset_names.' },
    { name: 'ruleset_names', type: ['list', 'string'], optional: true, description: 'Names of rule sets to apply, resolved to ids.' },
  ]),

  validate(config) {
    if (!isKnown(config.server_id) && config.enabled === null && config.rulesets === null && config.ruleset_names === null) return [];
    const ids = Array.isArray(config.rulesets) ? config.rulesets.filter(isKnown) : [];
    const names = Array.isArray(config.ruleset_names) ? config.ruleset_names.filter(isKnown) : [];
    const managesRulesets = config.rulesets !== null || config.ruleset_names !== null;
    const doc = {
      version: 1,
      kind: 'firewall',
      serverId: typeof config.server_id === 'string' ? config.server_id : 'vps_unknown_1',
      api: { tokenEnvVar: 'HOSTING_API_TOKEN' },
      desired: {
        enabled: config.enabled === null || config.enabled === UNKNOWN ? undefined : config.enabled,
        rulesets: managesRulesets ? [...ids, ...names] : undefined,
      },
    };
    const parsed = resourceDocumentSchema.safeParse(doc);
    if (parsed.success) return [];
    return parsed.error.issues.map((issue): Diagnostic => {
      const [first, second, index] = issue.path;
      const attribute = first === 'serverId' ? 'server_id'
        : second === 'rulesets' ? (typeof index === 'number' && index >= ids.length ? 'ruleset_names' : 'rulesets')
          : second === 'enabled' ? 'enabled' : undefined;
      return errorAt(attribute, `invalid ${attribute ?? 'hosting_server_firewall'}: ${issue.message}`);
    });
  },

  async read(ctx, state) {
    const serverId = String(state.server_id);
    try {
      const { data } = await readFresh(ctx, label(serverId), () => ctx.client.getFirewall(serverId));
      return { ...state, id: serverId, enabled: data.enabled, rulesets: sortedUnique(data.rulesets) };
    } catch (err) {
      if (isHostingApiError(err, 'not_found')) return null;
      return explainApiError(ctx, `${label(serverId)}: reading`, err, ['network:read']);
    }
  },

  async plan(ctx, prior, config): Promise<PlannedChange> {
    const desired = await desiredRulesets(ctx, config);
    const planned: ObjectValue = {
      id: prior?.id ?? UNKNOWN,
      server_id: config.server_id,
      enabled: config.enabled ?? prior?.enabled ?? UNKNOWN,
      rulesets: desired === undefined ? (prior?.rulesets ?? UNKNOWN) : desired,
      ruleset_names: config.ruleset_names,
    };
    return { planned, requiresReplace: prior && prior.server_id !== config.server_id ? ['server_id'] : [] };
  },

  async apply(ctx, config, planned) {
    const rulesets = planned.rulesets;
    const doc: FirewallDocument = {
      version: 1,
      kind: 'firewall',
      serverId: String(planned.server_id),
      api: { tokenEnvVar: 'HOSTING_API_TOKEN' },
      desired: {
        enabled: typeof config.enabled === 'boolean' ? config.enabled : undefined,
        rulesets: config.rulesets !== null || config.ruleset_names !== null ? (rulesets as number[]) : undefined,
      },
    };
    const plan = await planFirewall(ctx, doc);
    ctx.log(plan.summary);
    await plan.apply();
    const state = await serverFirewallResource.read(ctx, { ...planned, id: doc.serverId });
    if (!state) throw new Error(`${label(doc.serverId)}: the server disappeared while it was being changed`);
    return state;
  },

  importState(id) {
    return { id, server_id: id, enabled: null, rulesets: null, ruleset_names: null };
  },
};

/** Rule set ids the configuration asks for, names resolved; undefined when not managed, UNKNOWN when not known yet. */
async function desiredRulesets(ctx: ReconcileContext, config: ObjectValue): Promise<Value | undefined> {
  if (config.rulesets === null && config.ruleset_names === null) return undefined;
  if (!isKnown(config.rulesets) || !isKnown(config.ruleset_names)) return UNKNOWN;
  const ids = (config.rulesets as number[] | null) ?? [];
  const names = (config.ruleset_names as string[] | null) ?? [];
  if (names.length === 0) return sortedUnique(ids);
  const available = (await ctx.client.listRulesets().catch((err) => explainApiError(ctx, `${label(config.server_id)}: reading rule sets`, err, ['network:read']))).data;
  return sortedUnique([...ids, ...resolveRulesets(label(config.server_id), names, available)]);
}
