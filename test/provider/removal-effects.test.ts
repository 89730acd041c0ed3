import { SEED_DEDICATED_IPS } from '../../src/simulator';
import { ADDRESS, DEDICATED, firewall, ipSettings, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * What a removal with on_destroy = "restore" cannot put back is said by its plan, and its apply
 * puts back the rest without failing or warning again: the plan shows the removal's effects once.
 */
const t = useTwoAccounts();
const LEAVES = 'Removing this resource from Terraform leaves its settings on the server';

test('a firewall whose earlier rule set was deleted since: the plan names it, the apply puts back the rest', async () => {
  t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [1, 2] } });
  expect((await t.driver.apply({ fw: firewall('a', { enabled: false, rulesets: [4], on_destroy: 'restore', expect_takeover: true }) })).errors).toEqual([]);
  // Rule sets 1 ("web") and 2 ("ssh") deleted and made again under other ids.
  t.a.state.rulesets.splice(0, 2, { id: 98, name: 'web' }, { id: 99, name: 'ssh' });
  const removed = await t.driver.apply({});
  const { errors, warnings, appliedWarnings } = removed;
  expect({ errors, warnings, appliedWarnings }).toEqual({ errors: [], warnings: [LEAVES], appliedWarnings: [] });
  expect(removed.details).toEqual(['The apply leaves the firewall of vps_web_1 without rule sets 1, 2, which it had before this resource and the account no longer has.']);
  expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [] });
});

test('a firewall that retains: the plan names what stays, and the apply writes nothing', async () => {
  await t.driver.apply({ fw: firewall('a', { enabled: true, rulesets: [4], expect_takeover: true }) });
  const writes = t.a.executed({ serverId: SERVER }).length;
  const removed = await t.driver.apply({});
  expect(removed.details).toEqual(['The apply leaves the firewall of vps_web_1 (enabled true, rule sets [4]).']);
  expect(t.a.executed({ serverId: SERVER })).toHaveLength(writes);
});

test('a firewall that restores and only ever set enabled: enabled comes back, the rule sets stay', async () => {
  await t.driver.apply({ fw: firewall('a', { enabled: true, on_destroy: 'restore', expect_takeover: true }) });
  t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [4] } });
  const removed = await t.driver.apply({});
  expect({ errors: removed.errors, warnings: removed.warnings }).toEqual({ errors: [], warnings: [] });
  expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: false, rulesets: [4] });
});

test('a firewall whose earlier rule sets all remain: restored whole, and nothing said', async () => {
  t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [1, 2] } });
  await t.driver.apply({ fw: firewall('a', { enabled: false, rulesets: [4], on_destroy: 'restore', expect_takeover: true }) });
  const removed = await t.driver.apply({});
  expect({ errors: removed.errors, warnings: removed.warnings }).toEqual({ errors: [], warnings: [] });
  expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
});

test('IP settings whose fields were empty before: the plan names those the API cannot clear, the apply does not warn again', async () => {
  const ip = ipSettings({ ip: SEED_DEDICATED_IPS.secondary, description: 'set by terraform', on_destroy: 'restore' });
  expect((await t.driver.apply({ ip })).errors).toEqual([]);
  const reads = () => t.a.requests.filter((r) => r.endpoint === 'GET /servers/{serverId}/ips/{ip}').length;
  const before = reads();
  const removed = await t.driver.apply({});
  // Nothing to put back: the refresh reads the address, and the removal reads nothing more.
  expect(reads() - before).toBe(1);
  const { errors, warnings, appliedWarnings } = removed;
  expect({ errors, warnings, appliedWarnings }).toEqual({ errors: [], warnings: [LEAVES], appliedWarnings: [] });
  expect(removed.details[0]).toMatch(/that were empty before it, which the API cannot clear \(description "set by terraform"\)\.$/);
});

test('IP settings restored: the values before this resource come back, and one empty before is named at plan and stays', async () => {
  t.a.drift(DEDICATED, { ip: { address: ADDRESS, rdns: 'metal-1.example.com', description: null } });
  const ip = ipSettings({ rdns: 'new.example.com', description: 'new', on_destroy: 'restore' });
  expect((await t.driver.apply({ ip })).errors).toEqual([]);
  const removed = await t.driver.apply({});
  const { errors, warnings, appliedWarnings } = removed;
  expect({ errors, warnings, appliedWarnings }).toEqual({ errors: [], warnings: [LEAVES], appliedWarnings: [] });
  expect(removed.details[0]).toMatch(/which the API cannot clear \(description "new"\)\.$/);
  const now = t.a.state.server(DEDICATED).ipSettings.get(ADDRESS)!;
  expect({ rdns: now.rdns, description: now.description }).toEqual({ rdns: 'metal-1.example.com', description: 'new' });
});


test('IP settings restored whole: every field the resource wrote comes back, and nothing is said', async () => {
  const ip = ipSettings({ rdns: 'new.example.com', description: 'new', protection: { layer4: 'permanent', layer7: 'only' }, on_destroy: 'restore' });
  expect((await t.driver.apply({ ip })).errors).toEqual([]);
  const removed = await t.driver.apply({});
  expect({ errors: removed.errors, warnings: removed.warnings }).toEqual({ errors: [], warnings: [] });
  const { rdns, description, protection } = t.a.state.server(DEDICATED).ipSettings.get(ADDRESS)!;
  expect({ rdns, description, protection }).toEqual({ rdns: 'metal-1.example.com', description: 'primary', protection: { layer4: 'dynamic', layer7: 'off' } });
});
