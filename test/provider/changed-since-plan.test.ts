import { firewall, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * `changed_since_plan = "fail"` in an ordinary `terraform apply`: a lockdown made by hand while
 * "Enter a value:" waits is left in place and fails the apply, as for a saved plan applied by
 * another job. It costs one GET per changed resource, paid only by those who chose it: "overwrite"
 * writes from the refresh's read while it is recent (the PUT's answer is checked whole).
 */
const t = useTwoAccounts();
const lockdown = () => t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [3] } });
const firewallReads = () => t.a.requests.filter((r) => r.endpoint === 'GET /servers/{serverId}/firewall').length;

test.each([['fail', 1], ['overwrite', 0]] as const)('changed_since_plan = "%s": %d more GET in an apply right after its plan', async (choice, moreReads) => {
  const fw = (rulesets: number[]) => ({ fw_a: firewall('a', { enabled: false, rulesets, changed_since_plan: choice, expect_takeover: true }) });
  expect((await t.driver.apply(fw([1]))).errors).toEqual([]);
  const before = firewallReads();
  // The hand change comes between the plan and the apply, within plan_read_max_age_seconds.
  const run = await t.driver.apply(fw([1, 2]), { betweenPlanAndApply: lockdown });
  // The plan's refresh and the apply's reads: the apply of "overwrite" writes from the recent refresh.
  expect(firewallReads() - before).toBe(1 + moreReads);
  if (choice === 'fail') {
    expect(run.errors).toEqual([expect.stringContaining(`firewall ${SERVER}: changed since the plan: enabled false -> true`)]);
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [3] });
  } else {
    expect(run.errors).toEqual([]);
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: false, rulesets: [1, 2] });
  }
});
