import { serverFirewallResource } from '../../src/provider/resources/server-firewall';
import { APPLY_WALK_PLAN_READ_SECONDS } from '../../src/provider/session';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { configuredSessions } from '../helpers/sessions';
import { useSimulator } from '../helpers/simulator';

/*
 * Issue 74 §1.9: Terraform prints progress ("Still creating… [40s elapsed]") only while an
 * ApplyResourceChange runs. Once a process applies (the apply walk), the read with which its plan of
 * a change says or checks ahead what the apply does again must not wait for the rate budget: the
 * apply reads, and waits where Terraform shows it. A plan process waits as before.
 */
const s = useSimulator({ limits: { requestsPerToken: 4 } });
const UNSET = ['id', 'rulesets', 'ruleset_names', 'applied_rulesets', 'on_destroy', 'changed_since_plan', 'expect_takeover'];
const unset = Object.fromEntries(UNSET.map((name) => [name, null]));
const config = { ...unset, server_id: IDS.vpsStopped, enabled: true };

/** A firewall create's plan in a process whose budget its first reads spent; how long the plan took, and whether it read the firewall. */
async function planWithBudgetSpent(applying: boolean) {
  const sessions = await configuredSessions(s.client(), { now: s.clock.now });
  if (applying) sessions.forCall('apply');
  // GET /connect, the server list every plan shares, and two firewall reads spend the 4 requests of the window.
  await sessions.forCall('plan').listedServer(IDS.vpsStopped);
  for (const id of [IDS.vpsRunning, IDS.vdsRunning]) await serverFirewallResource.read(sessions.forCall('plan'), { ...config, server_id: id }, {});
  const started = s.clock.now();
  const change = await serverFirewallResource.plan(sessions.forCall('plan'), null, config, {});
  return { tookMs: s.clock.now() - started, readIt: change.private.observedFirewall !== undefined, sessions };
}

test('in the apply walk, a plan whose read would wait leaves it to the apply, which waits and writes', async () => {
  const { tookMs, readIt, sessions } = await planWithBudgetSpent(true);
  expect([tookMs, readIt]).toEqual([0, false]);
  const started = s.clock.now();
  const applied = await serverFirewallResource.apply(sessions.forCall('apply'), { prior: null, planned: { ...config, id: IDS.vpsStopped, applied_rulesets: [], rulesets: [] }, config, private: {} });
  expect(applied.error).toBeUndefined();
  expect(s.clock.now() - started).toBeGreaterThan(1_000);
  expect(s.sim.state.server(IDS.vpsStopped).firewall!.enabled).toBe(true);
});

test('a plan process waits for its read, as any plan does', async () => {
  const { tookMs, readIt } = await planWithBudgetSpent(false);
  expect(readIt).toBe(true);
  expect(tookMs).toBeGreaterThan(1_000);
});

describe('a read answered stale (section 1, rule 7)', () => {
  const fresh = useSimulator();
  test('in the apply walk, a plan reads it again within its few seconds, then leaves it to the apply', async () => {
    const sessions = await configuredSessions(fresh.client(), { now: fresh.clock.now, sleep: async (ms) => fresh.clock.advance(ms) });
    sessions.forCall('apply');
    // The last good value the API serves stale.
    await serverFirewallResource.read(sessions.forCall('plan'), config, {});
    fresh.sim.addFault({ endpoint: 'GET /servers/{serverId}/firewall', effect: { type: 'stale' } });
    const started = fresh.clock.now();
    const change = await serverFirewallResource.plan(sessions.forCall('plan'), null, config, {});
    expect(fresh.clock.now() - started).toBeLessThanOrEqual(APPLY_WALK_PLAN_READ_SECONDS * 1000);
    expect(change.private.observedFirewall).toBeUndefined();
  });
});
