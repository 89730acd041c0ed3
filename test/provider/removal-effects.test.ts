import { SEED_DEDICATED_IPS } from '../../src/simulator';
import { firewall, ipSettings, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * What a removal with on_destroy = "restore" cannot put back is said by its plan, and its apply
 * puts back the rest without failing or warning again: the plan shows the removal's effects once.
 */
const t = useTwoAccounts();
const LEAVES = 'Removing this resource from Terraform leaves its settings on the server';

test('a firewall whose earlier rule set was deleted since: the plan names it, the apply puts back the rest', async () => {
  await t.reset();
  t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [1, 2] } });
  expect((await t.driver.apply({ fw: firewall('a', { enabled: false, rulesets: [4], on_destroy: 'restore', expect_takeover: true }) })).errors).toEqual([]);
  // Rule set 1 ("web") deleted and made again under another id.
  t.a.state.rulesets.splice(0, 1, { id: 99, name: 'web' });
  const removed = await t.driver.apply({});
  const { errors, warnings, appliedWarnings } = removed;
  expect({ errors, warnings, appliedWarnings }).toEqual({ errors: [], warnings: [LEAVES], appliedWarnings: [] });
  expect(removed.details).toEqual(['The apply leaves the firewall of vps_web_1 without rule set 1, which it had before this resource and the account no longer has.']);
  expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [2] });
});

test('a firewall whose earlier rule sets all remain: restored whole, and nothing said', async () => {
  await t.reset();
  t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [1, 2] } });
  await t.driver.apply({ fw: firewall('a', { enabled: false, rulesets: [4], on_destroy: 'restore', expect_takeover: true }) });
  const removed = await t.driver.apply({});
  expect({ errors: removed.errors, warnings: removed.warnings }).toEqual({ errors: [], warnings: [] });
  expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
});

test('IP settings whose fields were empty before: the plan names those the API cannot clear, the apply does not warn again', async () => {
  await t.reset();
  const ip = ipSettings({ ip: SEED_DEDICATED_IPS.secondary, description: 'set by terraform', on_destroy: 'restore' });
  expect((await t.driver.apply({ ip })).errors).toEqual([]);
  const removed = await t.driver.apply({});
  const { errors, warnings, appliedWarnings } = removed;
  expect({ errors, warnings, appliedWarnings }).toEqual({ errors: [], warnings: [LEAVES], appliedWarnings: [] });
  expect(removed.details[0]).toMatch(/that were empty before it, which the API cannot clear \(description "set by terraform"\)\.$/);
});
