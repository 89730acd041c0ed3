import { firewall, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * `changed_since_plan` in an ordinary `terraform apply`: a lockdown made by hand while "Enter a
 * value:" waits, seconds after the plan's refresh. Either way the apply reads once before it
 * writes (the refresh may be hours old in a saved plan, and no clock decides): "fail" leaves the
 * change and fails, writing nothing; "overwrite" sets the planned values and names what it put back.
 */
const t = useTwoAccounts();
const lockdown = () => t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [3] } });
const firewallReads = () => t.a.requests.filter((r) => r.endpoint === 'GET /servers/{serverId}/firewall').length;
const firewallWrites = () => t.a.executed({ serverId: SERVER, kind: 'firewall' }).length;

test.each(['fail', 'overwrite'] as const)('changed_since_plan = "%s": the apply reads once, and a change 2 s after the plan is never written over unnamed', async (choice) => {
  const fw = (rulesets: number[]) => ({ fw_a: firewall('a', { enabled: false, rulesets, changed_since_plan: choice, expect_takeover: true }) });
  expect((await t.driver.apply(fw([1]))).errors).toEqual([]);
  const [reads, writes] = [firewallReads(), firewallWrites()];
  const twoSecondsLater = () => {
    lockdown();
    t.clock.advance(2_000);
  };
  const run = await t.driver.apply(fw([1, 2]), { betweenPlanAndApply: twoSecondsLater });
  // The plan's refresh, and the apply's one read.
  expect(firewallReads() - reads).toBe(2);
  if (choice === 'fail') {
    expect(run.errors).toEqual([expect.stringContaining(`firewall ${SERVER}: changed since the plan: enabled false -> true, rulesets [1] -> [3]`)]);
    expect(firewallWrites()).toBe(writes);
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [3] });
  } else {
    expect(run.errors).toEqual([]);
    expect(run.warnings).toEqual([`firewall ${SERVER}: changed since the plan: enabled false -> true (set back to false), rulesets [1] -> [3] (set to [1, 2] as planned)`]);
    expect(firewallWrites() - writes).toBe(1);
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: false, rulesets: [1, 2] });
  }
});
