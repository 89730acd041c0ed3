import {
  checkServerExists, checkWrite, importIdProblem, leftInPlaceLine, refusalAt, isGone, isKnown, replacing, knownOr, plannedValue, setOrUndefined,
  serverNotActive, skeletonState, unlessItWaits, validateChangedSincePlan, validateOnDestroy, validateSpec, writesNothing, type ObjectValue,
  type ProviderResource,
} from './resource';
import { type IpSettingField, type IpSettings, type Protection } from '../../api/schemas';
import { IPV4_PATTERN } from '../../contract/patterns';
import type { IpSettingsSpec } from '../../contract/resource-document';
import { diffIpSettings, lockedFields, planIpSettings, readIpSettings, sameHostName, type IpFieldChange } from '../../reconcile/ip-settings';
import { SETTINGS_RUN_SECONDS } from '../../reconcile/plan-resource';
import { foreignAddress } from '../../reconcile/preflight';
import { ReconcileError } from '../../reconcile/reconcile-error';
import { resourceLabel } from '../../reconcile/resource-label';
import { sincePlanOptions } from '../../reconcile/since-plan';
import { PROTECTION_MEMBERS } from '../api-members';
import { errorAt, isError, type Diagnostic } from '../diagnostics';
import { takeover, type PlanEffect } from './effects';
import { withRestoreValues, type PrivateState } from './private-state';
import { UNKNOWN, type Value } from '../plugin/values';
import { settingsCost } from '../rate-forecast';
import { CHANGED_SINCE_PLAN_ATTRIBUTE, EXPECT_TAKEOVER_ATTRIBUTE, objectOf, ON_DESTROY_ATTRIBUTE, schemaOf } from '../schema';
import type { ProviderSession } from '../session';

const FIELDS: readonly IpSettingField[] = ['rdns', 'description', 'protection'];

function specOf(serverId: string, ip: string, desired: IpSettingsSpec['desired']): IpSettingsSpec {
  return { kind: 'ip_settings', serverId, ip, desired };
}

const label = (serverId: Value, ip: Value) => resourceLabel(specOf(String(serverId), String(ip), {}));

/** The fields a configuration manages; a value Terraform does not know yet is left out (checked at apply). */
const desiredOf = (values: ObjectValue): IpSettingsSpec['desired'] => ({
  rdns: isKnown(values.rdns) ? setOrUndefined<string>(values.rdns) : undefined,
  description: isKnown(values.description) ? setOrUndefined<string>(values.description) : undefined,
  protection: isKnown(values.protection) ? setOrUndefined<Protection>(values.protection) : undefined,
});

const handoverKey = (serverId: string, ip: string) => `hosting_ip_settings/${serverId}/${ip}`;

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
  replacedBy: ['server_id', 'ip'],
  identity: { attributes: [{ name: 'server_id', description: 'The dedicated server id (`ded_…`).' }, { name: 'ip', description: 'The IPv4 address.' }] },
  importIdExample: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b/203.0.113.10',
  schema: schemaOf('Reverse DNS, description and DDoS protection of one IPv4 address of a dedicated server. Only the attributes set are managed; each changed one is one write. Import id: SERVER_ID/ADDRESS, e.g. ded_…/203.0.113.10.', [
    { name: 'id', type: 'string', computed: true, description: 'SERVER_ID/ADDRESS: the dedicated server id and the address, joined by a slash.' },
    { name: 'server_id', type: 'string', required: true, description: 'A dedicated server id (ded_…). Changing it replaces the resource.' },
    { name: 'ip', type: 'string', required: true, description: 'One IPv4 address of the server. Changing it replaces the resource.' },
    { name: 'rdns', type: 'string', optional: true, computed: true, description: 'Reverse DNS name; compared case-insensitively, ignoring a trailing dot.' },
    { name: 'description', type: 'string', optional: true, computed: true, description: 'Description of the address.' },
    { name: 'protection', type: objectOf(PROTECTION_MEMBERS, { required: true }), optional: true, computed: true, description: 'DDoS protection, both layers: the API sets them together.' },
    ON_DESTROY_ATTRIBUTE,
    EXPECT_TAKEOVER_ATTRIBUTE,
    CHANGED_SINCE_PLAN_ATTRIBUTE,
  ]),

  validate(config) {
    const spec = specOf(knownOr(config.server_id, 'ded_00000000-0000-0000-0000-000000000000') as string, knownOr(config.ip, '192.0.2.1') as string, {
      rdns: config.rdns === null ? undefined : (knownOr(config.rdns, 'unknown.invalid') as string),
      description: config.description === null ? undefined : (knownOr(config.description, '') as string),
      protection: config.protection === null ? undefined : (knownOr(config.protection, { layer4: 'dynamic', layer7: 'off' }) as Protection),
    });
    return [
      ...validateSpec(this.typeName, spec, ([first, second]) =>
        first === 'serverId' ? 'server_id' : first === 'ip' ? 'ip' : FIELDS.includes(second as IpSettingField) ? (second as string) : undefined),
      ...validateOnDestroy(config),
      ...validateChangedSincePlan(config),
    ];
  },

  async read(session, state, priv) {
    const [serverId, ip] = [String(state.server_id), String(state.ip)];
    const ctx = session.context(SETTINGS_RUN_SECONDS, priv.writtenAfter);
    try {
      const data = await readIpSettings(ctx, label(serverId, ip), serverId, ip);
      // The configuration's spelling of an equal host name is kept: a case or a final dot is no drift.
      const rdns = typeof state.rdns === 'string' && sameHostName(state.rdns, data.rdns) ? state.rdns : data.rdns;
      // A create that failed halfway is replaced next: its plan, in this process, takes over the values to restore.
      if (priv.incomplete && priv.restore) session.handovers.put(handoverKey(serverId, ip), priv.restore);
      return {
        state: { ...state, id: `${serverId}/${ip}`, rdns, description: data.description, protection: data.protection },
        private: { ...priv, editable: data.editable },
      };
    } catch (err) {
      if (isGone(err)) return { state: null, private: priv };
      throw err;
    }
  },

  async plan(session, prior, config, priv) {
    const replaced = replacing(this, prior, config);
    // A replacement's address is another one: what the old one showed says nothing of it.
    const shown = replaced.length ? null : prior;
    const planned: ObjectValue = {
      id: shown?.id ?? UNKNOWN,
      server_id: config.server_id,
      ip: config.ip,
      rdns: plannedValue(config, shown, 'rdns'),
      description: plannedValue(config, shown, 'description'),
      protection: plannedValue(config, shown, 'protection'),
      on_destroy: config.on_destroy,
      expect_takeover: config.expect_takeover,
      changed_since_plan: config.changed_since_plan,
    };
    const inherits = prior === null && isKnown(config.server_id) && isKnown(config.ip);
    const inherited = inherits ? session.handovers.take(handoverKey(String(config.server_id), String(config.ip))) : undefined;
    const missing = await checkServerExists(session, prior, config);
    const writes = await checkWrites(session, prior, config, priv, replaced.length > 0);
    const { observedSettings: _, ...kept } = inherited ? { ...priv, restore: inherited, replacesIncomplete: true } : priv;
    const taken = writes.taken;
    return {
      planned,
      requiresReplace: replaced,
      private: taken ? { ...kept, observedSettings: taken } : kept,
      diagnostics: [...missing, ...writes.diagnostics],
      effects: writes.effects,
    };
  },

  async apply(session, { prior, planned, config, private: priv }) {
    const [serverId, ip] = [String(planned.server_id), String(planned.ip)];
    const { replacesIncomplete: _, observedSettings, ...base } = priv;
    // A plan that changes nothing on the server writes nothing, whatever moved since: the next plan shows it.
    if (writesNothing(prior, planned, FIELDS)) return { state: { ...planned, id: `${serverId}/${ip}` }, private: base };
    const ctx = session.context(SETTINGS_RUN_SECONDS, base.writtenAfter);
    // A fresh read: the refresh behind the plan may be hours old (a saved plan), and what moved
    // since is named. A create has what its plan in this apply walk read a moment before.
    const since = sincePlanOptions(session.refusesChangedSincePlan(config), observedSettings, settingsIn(prior, priv));
    const plan = await planIpSettings(ctx, specOf(serverId, ip, desiredOf(config)), since);
    ctx.log(plan.summary);
    const actual: ObjectValue = { ...planned, id: `${serverId}/${ip}` };
    for (const field of FIELDS) if (actual[field] === UNKNOWN) actual[field] = plan.actual[field];
    const applied: IpFieldChange[] = [];
    const writtenAfter = session.newestObservedAt();
    const privateAfter = () => withRestoreValues(
      { ...base, editable: plan.actual.editable, ...(applied.length > 0 && { writtenAfter }) },
      Object.fromEntries(applied.map((c) => [c.field, plan.actual[c.field]])),
    );
    try {
      await plan.apply((change) => applied.push(change));
    } catch (error) {
      // Partial failure: the state records what was written, so the next plan shows only what is left.
      const partial: ObjectValue = { ...actual };
      for (const field of FIELDS) if (!applied.some((c) => c.field === field)) partial[field] = plan.actual[field];
      return { state: partial, private: prior === null ? { ...privateAfter(), incomplete: true } : privateAfter(), error };
    }
    return { state: actual, private: privateAfter() };
  },

  async leftInPlace(_session, prior, priv) {
    if (priv.replacesIncomplete) return undefined;
    const where = `the settings of ${String(prior.ip)} on ${String(prior.server_id)}`;
    const described = (fields: readonly string[]) => fields.map((f) => `${f} ${JSON.stringify(prior[f])}`).join(', ');
    const restore = prior.on_destroy === 'restore' ? priv.restore : undefined;
    if (!restore) return `${where} (${described(FIELDS.filter((f) => prior[f] !== null)) || 'none set'})`;
    // The API sets text and has no way to clear a field: one that was empty before this resource stays as it is.
    const unclearable = FIELDS.filter((f) => restore[f] === null && prior[f] !== null);
    return unclearable.length ? `${where} that were empty before it, which the API cannot clear (${described(unclearable)})` : undefined;
  },

  async destroy(session, prior, priv) {
    const [serverId, ip] = [String(prior.server_id), String(prior.ip)];
    const ctx = session.context(SETTINGS_RUN_SECONDS, priv.writtenAfter);
    if (priv.replacesIncomplete) {
      // Terraform plans the replacement again in this process, after this removal: hand it the values.
      if (priv.restore) session.handovers.put(handoverKey(serverId, ip), priv.restore);
      ctx.log(`${label(serverId, ip)}: its create had not completed, so its settings are left as they are; the replacement continues from there and keeps the values to restore`);
      return;
    }
    const left = await this.leftInPlace(session, prior, priv);
    if (left) ctx.log(leftInPlaceLine(left));
    const before = prior.on_destroy === 'restore' ? priv.restore : undefined;
    const restore = desiredOf({ rdns: null, description: null, protection: null, ...before });
    if (FIELDS.every((f) => restore[f] === undefined)) return;
    const plan = await planIpSettings(ctx, specOf(serverId, ip, restore));
    ctx.log(`${plan.summary} (restoring the values before this resource)`);
    await plan.apply();
  },

  importState(id) {
    const [serverId, ip, ...rest] = id.split('/');
    const problem = rest.length || ip === undefined ? `${JSON.stringify(id)} is not <dedicated server id>/<IPv4 address>`
      : importIdProblem(serverId, 'ded') ?? (IPV4_PATTERN.test(ip) ? undefined : `${JSON.stringify(ip)} is not an IPv4 address`);
    if (problem) {
      throw new ReconcileError(`cannot import as hosting_ip_settings: ${problem}`, 'the import id is <dedicated server id>/<IPv4 address>, e.g. terraform import <address> ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b/203.0.113.10');
    }
    return skeletonState(this, { id, server_id: serverId, ip });
  },

  stateFromBridge(document) {
    const { serverId, ip, desired } = document as IpSettingsSpec;
    return { ...this.importState(`${serverId}/${ip}`), rdns: desired.rdns ?? null, description: desired.description ?? null, protection: desired.protection ?? null };
  },
};

/**
 * The settings a create takes over, read at plan; the apply right after this plan writes from them.
 * In the apply walk a read that would wait is left to the apply (undefined), which reads and checks again.
 */
const takenOver = (session: ProviderSession, serverId: string, ip: string): Promise<IpSettings | undefined> =>
  unlessItWaits(session, (seconds) => readIpSettings(session.context(seconds), label(serverId, ip), serverId, ip));

/**
 * What the apply would refuse, known now: an address that is not the server's, a field this token
 * may not edit (read for a new resource, from the refresh otherwise), a shared server, a missing
 * scope. Only for a plan that writes something. For a create, also what it takes over: what its
 * apply starts from, and what the plan says it changes.
 */
async function checkWrites(
  session: ProviderSession,
  prior: ObjectValue | null,
  config: ObjectValue,
  priv: PrivateState,
  replaced: boolean,
): Promise<{ diagnostics: Diagnostic[]; effects?: PlanEffect[]; taken?: IpSettings }> {
  if (typeof config.server_id !== 'string' || typeof config.ip !== 'string') return { diagnostics: [] };
  const [serverId, ip] = [config.server_id, config.ip];
  const server = await session.listedServer(serverId);
  if (!server) return { diagnostics: [] };
  const foreign = foreignAddress(label(serverId, ip), server, ip);
  if (foreign) return { diagnostics: [refusalAt('ip', foreign)] };
  const creating = replaced || !prior;
  const taken = creating ? await takenOver(session, serverId, ip) : undefined;
  if (creating && !taken) return { diagnostics: [] };
  const observed = taken ?? settingsIn(prior, priv);
  if (!observed) return { diagnostics: [] };
  const changes = diffIpSettings(desiredOf(config), observed);
  if (changes.length === 0 && FIELDS.every((f) => isKnown(config[f]))) return { diagnostics: [], taken };
  const refusals = [
    ...lockedFields(changes, observed).map((field) =>
      errorAt(field, `${label(serverId, ip)}: ${field} is not editable for this address`, `remove ${field} from the configuration, or ask the hosting provider to make it editable; nothing was changed`)),
    ...(await checkWrite(session, serverId, label(serverId, ip), ['network:write'], `changing ${changes.map((c) => c.field).join(', ') || 'its settings'}`)),
  ];
  // A create takes over the address's settings as they are: the plan names what the apply changes.
  // A scope the read-only plan's token lacks is a warning: the plan still says all the rest.
  const refused = refusals.some(isError);
  const says = !refused && taken && !session.expectsTakeover(config);
  const writing = !refused && changes.length > 0;
  const notActive = writing ? await serverNotActive(session, serverId, label(serverId, ip), 'a change of IP settings') : [];
  const taking = says ? takeover('ip settings', `the settings of ${ip} on ${serverId}`, changes.map((c) => `${c.field} ${c.from} -> ${c.to}`)) : [];
  const forecast = writing ? session.forecast(settingsCost(changes.length)) : [];
  return { diagnostics: [...refusals, ...forecast], effects: [...notActive, ...taking], taken };
}
