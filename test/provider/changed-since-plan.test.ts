import { firewall, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * `changed_since_plan = "fail"` in an ordinary `terraform apply`: a lockdown made by hand while
 * "Enter a value:" waits is left in place and fails the apply, as for a saved plan applied by
 * another job. Every apply reads what it changes before it writes (the refresh may be a saved
 * plan's, hours old): "fail" costs no request more than "overwrite".
 */
const t = useTwoAccounts();
const lockdown = () => t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [3] } });
const firewallReads = () => t.a.requests.filter((r) => r.endpoint === 'GET /servers/{serverId}/firewall').length;

test.each(['fail', 'overwrite'] as const)('changed_since_plan = "%s": one GET in the apply, after the refresh\'s', async (choice) => {
  const fw = (rulesets: number[]) => ({ fw_a: firewall('a', { enabled: false, rulesets, changed_since_plan: choice, expect_takeover: true }) });
  expect((await t.driver.apply(fw([1]))).errors).toEqual([]);
  const before = firewallReads();
  // One terraform process plans and applies (as `terraform apply` does); the hand change comes between.
  const run = await t.driver.terraformTest(() => t.driver.apply(fw([1, 2]), { betweenPlanAndApply: lockdown }));
  // The plan's refresh and the apply's read.
  expect(firewallReads() - before).toBe(2);
  if (choice === 'fail') {
    expect(run.errors).toEqual([expect.stringContaining(`firewall ${SERVER}: changed since the plan: enabled false -> true`)]);
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [3] });
  } else {
    expect(run.errors).toEqual([]);
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: false, rulesets: [1, 2] });
  }
});
