import { firewall, useTwoAccounts, SERVER } from '../helpers/two-accounts';

/**
 * Waiting out the API's limits is said where a pipeline owner looks: the operation that waited more
 * than a few seconds ends with a warning saying how long and why (each wait's start is in the log).
 */
const t = useTwoAccounts();

test('an operation that waited 30 s for a 429 says so in one warning, under the summary all waits share; one that did not wait says nothing', async () => {
  const fw = { fw: firewall('a', { enabled: true, expect_takeover: true }) };
  t.a.addFault({ endpoint: 'GET /servers/{serverId}/firewall', serverId: SERVER, times: 1, effect: { type: 'error', status: 429, code: 'rate_limited', retryAfterSeconds: 30 } });
  const slowed = await t.driver.apply(fw);
  expect(slowed.errors).toEqual([]);
  // One summary for every operation that waited, so Terraform folds them; the detail says how long and why.
  expect(slowed.warnings).toEqual(['Waited for the API\'s rate limits']);
  expect(slowed.details).toEqual([expect.stringMatching(/^waited 30 s for the API's limits: 30 s for the API's 429 rate_limited answers \(waited out as Retry-After asked\); every run that uses the token shares them/)]);
  const quick = await t.driver.apply({ fw: firewall('a', { enabled: false, expect_takeover: true }) });
  expect(quick.warnings).toEqual([]);
});
