import { firewall, ipSettings, power, SERVER, useTwoAccounts } from '../helpers/two-accounts';

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
  expect(plan.errors).toEqual([expect.stringMatching(/: the API only returned data from before this resource's last write \(last observed at .+\)$/)]);
});

test('a power state\'s refresh decides on the server list read again after a stale one: a hand start since the apply shows', async () => {
  expect((await t.driver.apply({ pw: power({ state: 'running' }) })).errors).toEqual([]);
  expect((await t.driver.apply({ pw: power({ state: 'stopped' }) })).errors).toEqual([]);
  t.clock.advance(10_000);
  t.a.drift(SERVER, { power: 'running' });
  // The first list is the API's last good one, from before the stop; the list read again is live.
  t.a.addFault({ endpoint: 'GET /servers', times: 1, effect: { type: 'stale' } });
  const plan = await t.driver.plan({ pw: power({ state: 'stopped' }) });
  expect({ errors: plan.errors, changes: plan.changes }).toEqual({ errors: [], changes: { pw: 'update' } });
});
