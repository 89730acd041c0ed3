import { UNKNOWN, type Value } from '../../src/provider/plugin/values';
import { ipSettingsResource } from '../../src/provider/resources/ip-settings';
import { powerStateResource } from '../../src/provider/resources/power-state';
import type { ObjectValue, ProviderResource } from '../../src/provider/resources/resource';
import { serverFirewallResource } from '../../src/provider/resources/server-firewall';
import type { SessionFactory } from '../../src/provider/session';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { configuredSessions } from '../helpers/sessions';
import { useSimulator } from '../helpers/simulator';

/*
 * Terraform refuses an apply whose result differs from a known planned value ("Provider produced
 * inconsistent result after apply"). For each resource and a table of attribute combinations (set,
 * unset, not known at plan time, changed to unset), what apply returns equals every planned value
 * that was known: for a create, and for an update from the refreshed state of the first.
 */
const s = useSimulator({ operationDelays: { queuedMs: 0, runningMs: 0 } });
let sessions: SessionFactory;
beforeEach(async () => {
  sessions = await configuredSessions(s.client(), { now: s.clock.now });
});

/** Sets compare as sets; everything else as it is. */
const normalized = (v: Value): Value => (Array.isArray(v) && v.every((x) => typeof x === 'number') ? [...(v as number[])].sort((a, b) => a - b) : v);
const known = (values: ObjectValue) => Object.entries(values).filter(([, v]) => v !== UNKNOWN);
const resolved = (config: ObjectValue, finalConfig: ObjectValue): ObjectValue =>
  Object.fromEntries(Object.entries(config).map(([k, v]) => [k, v === UNKNOWN ? finalConfig[k] : v]));

/** Plans with `config` (unknowns included), then, as Terraform does at apply, again with every value known, and applies. */
async function planAndApply(resource: ProviderResource, prior: ObjectValue | null, priv: object, config: ObjectValue, finalConfig: ObjectValue) {
  const early = await resource.plan(sessions.forCall('plan'), prior, config, priv);
  // No refusal; a create's warning of what it takes over is allowed.
  expect((early.diagnostics ?? []).filter((d) => d.severity === 1)).toEqual([]);
  const late = await resource.plan(sessions.forCall('plan'), prior, finalConfig, priv);
  const applied = await resource.apply(sessions.forCall('apply'), { prior, planned: late.planned, config: finalConfig, private: late.private });
  // As ApplyResourceChange does after a power write: the run's server list no longer shows the account.
  if (resource.changesServerList) sessions.forCall('plan').forgetServerList();
  expect(applied.error).toBeUndefined();
  for (const [name, value] of known(early.planned)) expect([name, normalized(applied.state![name])]).toEqual([name, normalized(value)]);
  for (const [name, value] of known(late.planned)) expect([name, normalized(applied.state![name])]).toEqual([name, normalized(value)]);
  return applied;
}

async function roundTrip(resource: ProviderResource, first: ObjectValue, second: ObjectValue) {
  const created = await planAndApply(resource, null, {}, first, resolved(first, { ...first, ...FINAL }));
  // The next run comes later: the API observes anew (a read observed no later than the write would be read again).
  s.clock.advance(1_000);
  const refreshed = await resource.read(sessions.forCall('plan'), created.state!, created.private);
  await planAndApply(resource, refreshed.state, refreshed.private, second, resolved(second, { ...second, ...FINAL }));
}

/** The values an unknown attribute turns out to have at apply. */
const FINAL: ObjectValue = { enabled: true, rulesets: [3], ruleset_names: ['mail'], rdns: 'later.example.com', description: 'later', protection: { layer4: 'permanent', layer7: 'off' }, state: 'stopped' };

const firewall = (over: ObjectValue): ObjectValue => ({
  id: null, server_id: IDS.vpsRunning, enabled: null, rulesets: null, ruleset_names: null, applied_rulesets: null, on_destroy: null, ...over,
});
test.each<[string, ObjectValue, ObjectValue]>([
  ['enabled only, then rule sets by id', { enabled: true }, { rulesets: [2, 1] }],
  ['rule sets by name, then names removed', { enabled: true, ruleset_names: ['web'] }, { enabled: true }],
  ['ids and names, then ids only', { rulesets: [4], ruleset_names: ['ssh'] }, { rulesets: [4] }],
  ['unknown enabled, then unknown names', { enabled: UNKNOWN }, { ruleset_names: UNKNOWN }],
  ['unknown ids, then everything unset but enabled', { rulesets: UNKNOWN, enabled: false }, { enabled: false }],
])('hosting_server_firewall: %s', async (_name, first, second) => {
  await roundTrip(serverFirewallResource, firewall(first), firewall(second));
});

const ip = (over: ObjectValue): ObjectValue => ({
  id: null, server_id: IDS.dedicated, ip: IPS.primary, rdns: null, description: null, protection: null, on_destroy: null, ...over,
});
test.each<[string, ObjectValue, ObjectValue]>([
  ['rdns, then description only', { rdns: 'a.example.com' }, { description: 'web' }],
  ['everything, then rdns changed to unset', { rdns: 'Web.Example.com.', description: 'd', protection: { layer4: 'dynamic', layer7: 'only' } }, { description: 'd' }],
  ['unknown rdns, then unknown protection', { rdns: UNKNOWN }, { protection: UNKNOWN }],
  ['unknown description on a locked rdns', { description: UNKNOWN }, { rdns: 'static.203-0-113-10.provider.example', description: UNKNOWN }],
])('hosting_ip_settings: %s', async (_name, first, second) => {
  await roundTrip(ipSettingsResource, ip(first), ip(second));
});

const power = (over: ObjectValue): ObjectValue => ({
  id: null, server_id: IDS.vpsRunning, state: 'running', stop_method: null, force_stop_fallback: null, reboot_triggers: null, hard_reboot: null, ready_timeout_seconds: null, operation_timeout_seconds: null, ...over,
});
test.each<[string, ObjectValue, ObjectValue]>([
  ['running, then stopped by power_off', {}, { state: 'stopped', stop_method: 'power_off' }],
  ['triggers set, then changed (a reboot)', { reboot_triggers: { image: 'v1' } }, { reboot_triggers: { image: 'v2' }, hard_reboot: true }],
  ['unknown state, then triggers unset', { state: UNKNOWN }, { state: 'stopped' }],
])('hosting_power_state: %s', async (_name, first, second) => {
  await roundTrip(powerStateResource, power(first), power(second));
});
