import { isHostingApiError } from '../../api/errors';
import type { IpSettingField, IpSettings, Protection } from '../../api/schemas';
import { IPV4_PATTERN, SERVER_ID_PATTERN } from '../../contract/patterns';
import type { IpSettingsDocument } from '../../contract/resource-document';
import { explainApiError, readFresh } from '../../reconcile/context';
import { diffIpSettings, lockedFields, planIpSettings, sameHostName, type IpFieldChange } from '../../reconcile/ip-settings';
import { SETTINGS_RUN_SECONDS } from '../../reconcile/plan-resource';
import { ReconcileError } from '../../reconcile/reconcile-error';
import { errorAt } from '../diagnostics';
import { afterWrites, keyNamespace, withInstance, type PrivateState } from '../private-state';
import { ON_DESTROY_ATTRIBUTE, schemaOf } from '../schema';
import { UNKNOWN, type Value } from '../values';
import { knownOr, plannedValue, PROVIDER_CONNECTION, setOrUndefined, validateDocument, validateOnDestroy, type ObjectValue, type ProviderResource } from './resource';

const FIELDS: readonly IpSettingField[] = ['rdns', 'description', 'protection'];
const label = (serverId: Value, ip: Value) => `ip settings ${String(serverId)} ${String(ip)}`;

function documentOf(serverId: string, ip: string, desired: IpSettingsDocument['desired']): IpSettingsDocument {
  return { version: 1, kind: 'ip_settings', serverId, ip, api: PROVIDER_CONNECTION, desired };
}

const desiredOf = (values: ObjectValue): IpSettingsDocument['desired'] => ({
  rdns: setOrUndefined<string>(values.rdns),
  description: setOrUndefined<string>(values.description),
  protection: setOrUndefined<Protection>(values.protection),
});

/**
 * The settings a refreshed state holds, with the editability the last read saw; undefined for a
 * create or an import that was never read, so the address is read first.
 */
function settingsIn(state: ObjectValue | null, priv: PrivateState): IpSettings | undefined {
  if (!state || !priv.editable || FIELDS.some((f) => state[f] === UNKNOWN)) return undefined;
  return {
    address: String(state.ip),
    rdns: state.rdns as string | null,
    description: state.description as string | null,
    protection: state.protection as Protection | null,
    editable: priv.editable as IpSettings['editable'],
  };
}

/** `hosting_ip_settings`: rDNS, description and DDoS protection of one address of a dedicated server. */
export const ipSettingsResource: ProviderResource = {
  typeName: 'hosting_ip_settings',
  schema: schemaOf('Reverse DNS, description and DDoS protection of one IPv4 address of a dedicated server. Only the attributes set are managed; each changed one is one write. Import id: <server id>/<address>, e.g. ded_…/203.0.113.10.', [
    { name: 'id', type: 'string', computed: true, description: '<server id>/<address>.' },
    { name: 'server_id', type: 'string', required: true, description: 'A dedicated server id (ded_…). Changing it replaces the resource.' },
    { name: 'ip', type: 'string', required: true, description: 'One IPv4 address of the server. Changing it replaces the resource.' },
    { name: 'rdns', type: 'string', optional: true, computed: true, description: 'Reverse DNS name; compared case-insensitively, ignoring a trailing dot.' },
    { name: 'description', type: 'string', optional: true, computed: true, description: 'Description of the address.' },
    { name: 'protection', type: ['object', { layer4: 'string', layer7: 'string' }], optional: true, computed: true, description: 'DDoS protection: layer4 "dynamic" or "permanent"; layer7 "off", "permanent" or "only".' },
    ON_DESTROY_ATTRIBUTE,
  ]),

  validate(config) {
    const doc = documentOf(knownOr(config.server_id, 'ded_00000000-0000-0000-0000-000000000000') as string, knownOr(config.ip, '192.0.2.1') as string, {
      rdns: config.rdns === null ? undefined : (knownOr(config.rdns, 'unknown.invalid') as string),
      description: config.description === null ? undefined : (knownOr(config.description, '') as string),
      protection: config.protection === null ? undefined : (knownOr(config.protection, { layer4: 'dynamic', layer7: 'off' }) as Protection),
    });
    return [
      ...validateDocument(this.typeName, doc, ([first, second]) =>
        first === 'serverId' ? 'server_id' : first === 'ip' ? 'ip' : FIELDS.includes(second as IpSettingField) ? (second as string) : undefined),
      ...validateOnDestroy(config),
    ];
  },

  async read(session, state, priv) {
    const [serverId, ip] = [String(state.server_id), String(state.ip)];
    const ctx = session.context(keyNamespace(priv), SETTINGS_RUN_SECONDS);
    try {
      const { data } = await readFresh(ctx, label(serverId, ip), () => ctx.client.getIpSettings(serverId, ip));
      // The configuration's spelling of an equal host name is kept: a case or a final dot is no drift.
      const rdns = typeof state.rdns === 'string' && sameHostName(state.rdns, data.rdns) ? state.rdns : data.rdns;
      return {
        state: { ...state, id: `${serverId}/${ip}`, rdns, description: data.description, protection: data.protection },
        private: { ...priv, editable: data.editable },
      };
    } catch (err) {
      if (isHostingApiError(err, 'not_found')) return { state: null, private: priv };
      return explainApiError(ctx, `${label(serverId, ip)}: reading`, err, ['network:read']);
    }
  },

  async plan(_session, prior, config, priv) {
    const planned: ObjectValue = {
      id: prior?.id ?? UNKNOWN,
      server_id: config.server_id,
      ip: config.ip,
      rdns: plannedValue(config, prior, 'rdns'),
      description: plannedValue(config, prior, 'description'),
      protection: plannedValue(config, prior, 'protection'),
      on_destroy: config.on_destroy,
    };
    const replaced = prior !== null && (prior.server_id !== config.server_id || prior.ip !== config.ip);
    // A field this token may not edit is refused now, at plan time, rather than halfway through an apply.
    const observed = replaced ? undefined : settingsIn(prior, priv);
    const locked = observed ? lockedFields(diffIpSettings(desiredOf(config), observed), observed) : [];
    return {
      planned,
      requiresReplace: replaced ? ['server_id', 'ip'].filter((name) => prior[name] !== config[name]) : [],
      private: withInstance(priv),
      diagnostics: locked.map((field) =>
        errorAt(field, `${label(config.server_id, config.ip)}: ${field} is not editable for this address`, `remove ${field} from the configuration, or ask the provider to make it editable; nothing was changed`)),
    };
  },

  async apply(session, { prior, planned, config, private: priv }) {
    const [serverId, ip] = [String(planned.server_id), String(planned.ip)];
    const ctx = session.context(keyNamespace(priv), SETTINGS_RUN_SECONDS);
    const plan = await planIpSettings(ctx, documentOf(serverId, ip, desiredOf(config)), settingsIn(prior, priv));
    ctx.log(plan.summary);
    const actual: ObjectValue = { ...planned, id: `${serverId}/${ip}` };
    for (const field of FIELDS) if (config[field] === null) actual[field] = plan.actual[field];
    const applied: IpFieldChange[] = [];
    const result = (state: ObjectValue) => ({
      state,
      private: afterWrites({ ...priv, editable: plan.actual.editable }, Object.fromEntries(applied.map((c) => [c.field, plan.actual[c.field]]))),
    });
    try {
      await plan.apply((change) => applied.push(change));
    } catch (error) {
      // Partial failure: the state records what was written, so the next plan shows only what is left.
      const partial: ObjectValue = { ...actual };
      for (const field of FIELDS) if (!applied.some((c) => c.field === field)) partial[field] = plan.actual[field];
      return { ...result(partial), error };
    }
    return result(actual);
  },

  async destroy(session, prior, priv) {
    if (prior.on_destroy !== 'restore' || !priv.restore) return [];
    const [serverId, ip] = [String(prior.server_id), String(prior.ip)];
    // The API sets strings and has no way to clear a field: a field that was empty stays as it is.
    const cleared = Object.entries(priv.restore).filter(([, value]) => value === null).map(([field]) => field);
    const ctx = session.context(`${keyNamespace(priv)}.restore`, SETTINGS_RUN_SECONDS);
    const restore = desiredOf({ rdns: null, description: null, protection: null, ...priv.restore });
    const plan = await planIpSettings(ctx, documentOf(serverId, ip, restore), settingsIn(prior, priv));
    ctx.log(`${plan.summary} (restoring the values before this resource)`);
    await plan.apply();
    return cleared.map((field) => ({
      severity: 2 as const,
      summary: `${label(serverId, ip)}: ${field} was empty before this resource set it, and the API cannot clear it; it keeps its current value`,
      attribute: { steps: [{ attribute_name: field }] },
    }));
  },

  importState(id) {
    const [serverId, ip, ...rest] = id.split('/');
    if (rest.length || !SERVER_ID_PATTERN.test(serverId) || !serverId.startsWith('ded_') || !IPV4_PATTERN.test(ip ?? '')) {
      throw new ReconcileError(`cannot import "${id}" as hosting_ip_settings: the import id is <dedicated server id>/<IPv4 address>`, 'e.g. terraform import <address> ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b/203.0.113.10');
    }
    return { id, server_id: serverId, ip, rdns: null, description: null, protection: null, on_destroy: null };
  },
};
