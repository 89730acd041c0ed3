import { firewall, ipSettings, power, useTwoAccounts } from '../helpers/two-accounts';

/*
 * Section 1, rule 6: reads "may come from a cache that lives a few seconds and is shared between
 * callers". A read the API observed no later than a resource's last write (its `meta.observedAt`)
 * says nothing of that write: the refresh right after an apply reads again instead of showing the
 * values from before the apply as a change, and the plan is empty.
 */
const t = useTwoAccounts();
const cacheServesEarlierReads = () => t.a.addFault({ endpoint: 'GET *', effect: { type: 'cache', maxAgeSeconds: 5 } });

test.each([
  ['a firewall', { fw: firewall('a', { enabled: false }) }, { fw: firewall('a', { enabled: true }) }],
  ['an address\'s settings', { ip: ipSettings({ description: 'before' }) }, { ip: ipSettings({ description: 'after' }) }],
  ['a power state', { pw: power({ state: 'running' }) }, { pw: power({ state: 'stopped' }) }],
])('%s: the plan right after an apply, its reads served from a cache of the apply\'s, shows no change', async (_kind, before, after) => {
  expect((await t.driver.apply(before)).errors).toEqual([]);
  expect((await t.driver.apply(after)).errors).toEqual([]);
  cacheServesEarlierReads();
  const plan = await t.driver.plan(after);
  expect({ errors: plan.errors, changes: plan.changes }).toEqual({ errors: [], changes: {} });
});

test('a cache that outlives the reads again fails the plan, saying what the API served and what to do', async () => {
  expect((await t.driver.apply({ fw: firewall('a', { enabled: false }) })).errors).toEqual([]);
  expect((await t.driver.apply({ fw: firewall('a', { enabled: true }) })).errors).toEqual([]);
  t.a.addFault({ endpoint: 'GET *', effect: { type: 'cache', maxAgeSeconds: 60 } });
  const plan = await t.driver.plan({ fw: firewall('a', { enabled: true }) });
  expect(plan.errors).toEqual([expect.stringMatching(/: the API only returned data from before this resource's last write \(last observed at .+\); nothing was changed$/)]);
});
