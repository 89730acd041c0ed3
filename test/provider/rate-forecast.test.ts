import { addCosts, bindingLimit, forecastWarning, limitsReported, powerCost, settingsCost, SHARED_READS } from '../../src/provider/rate-forecast';
import { serverFirewallResource } from '../../src/provider/resources/server-firewall';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { configuredSessions } from '../helpers/sessions';
import { useSimulator } from '../helpers/simulator';

describe('what an apply will spend of the token\'s limits, foretold at plan', () => {
  test('each kind\'s cost: settings are their writes and the read of a saved plan\'s apply; power is a read, then each action and its polls', () => {
    expect([settingsCost(1), settingsCost(3), powerCost(0), powerCost(2)]).toEqual([
      { requests: 2, actions: 0 }, { requests: 4, actions: 0 }, { requests: 0, actions: 0 }, { requests: 7, actions: 2 },
    ]);
  });

  test('within a minute\'s budget nothing is said; past it, the limit that binds first, actions before requests', () => {
    const firewalls = (n: number) => Array.from({ length: n }, () => settingsCost(1)).reduce(addCosts, SHARED_READS);
    expect(bindingLimit(firewalls(58))).toBeUndefined();
    expect(bindingLimit(firewalls(59))).toEqual({ what: 'requests', count: 121, limit: 120, reported: false });
    expect(bindingLimit(addCosts(firewalls(59), powerCost(11)))).toMatchObject({ what: 'power actions', count: 11, limit: 10 });
    expect(forecastWarning(firewalls(58), 58)).toBeUndefined();
  });

  test('the warning names the limit, the count and about how long, in minutes', () => {
    const warning = forecastWarning({ requests: 370, actions: 0 }, 180)!;
    expect(warning.summary).toBe('The apply will wait for the API\'s rate limits: more than 120 requests with this token');
    expect(warning.detail).toContain('This plan\'s first 180 changes already take about 370 requests; the token may send 120 a minute (the API\'s limit, section 8), so the apply waits for its budget, up to about 3 minutes (each wait ends when the API\'s window resets)');
  });

  // Issue 59 §1: an API with other limits than the spec's.
  test('the figures the API reports decide, the spec\'s only until an answer said: a lower limit warns sooner, a higher one later', () => {
    const cost = { requests: 30, actions: 11 };
    expect(bindingLimit(cost, limitsReported(undefined, undefined))).toMatchObject({ what: 'power actions', limit: 10, reported: false });
    expect(bindingLimit(cost, limitsReported(120, 100))).toBeUndefined();
    expect(bindingLimit(cost, limitsReported(6, 100))).toEqual({ what: 'requests', count: 30, limit: 6, reported: true });
    expect(forecastWarning({ requests: 30, actions: 0 }, 3, limitsReported(6, undefined))!.detail).toContain('the token may send 6 a minute (as the API\'s answers to this plan report it), so the apply waits for its budget, up to about 4 minutes (each wait ends when the API\'s window resets)');
  });
});

describe('a plan against an API whose answers report 6 requests a minute', () => {
  const s = useSimulator({ limits: { requestsPerToken: 6 } });
  /** The forecasts three firewall creates plan in one process, after `before` RPCs of `phase`. */
  async function forecastsOfThreeCreates(before: 'apply' | undefined): Promise<string[]> {
    const sessions = await configuredSessions(s.client(), { now: s.clock.now });
    if (before) sessions.forCall(before);
    const unset = { id: null, rulesets: null, ruleset_names: null, applied_rulesets: null, on_destroy: null, changed_since_plan: null };
    const config = { ...unset, enabled: true, expect_takeover: true };
    const said: string[] = [];
    for (const id of [IDS.vpsRunning, IDS.vpsStopped, IDS.vdsRunning]) {
      const change = await serverFirewallResource.plan(sessions.forCall('plan'), null, { ...config, server_id: id }, {});
      said.push(...(change.diagnostics ?? []).map((d) => d.summary));
    }
    return said.filter((w) => w.startsWith('The apply will wait'));
  }

  test('three firewall changes are foretold to wait, from the reported figure', async () => {
    // The plan's own reads left 4 of the 6 when the third change crossed them.
    expect(await forecastsOfThreeCreates(undefined)).toEqual(['The apply will wait for the API\'s rate limits: more than 4 requests with this token']);
  });

  test('the apply walk plans each change again: once its process applied, its plans foretell nothing', async () => {
    expect(await forecastsOfThreeCreates('apply')).toEqual([]);
  });
});

describe('the tightest budget decides the forecast: the account\'s, spent by its other tokens', () => {
  test('a budget with few requests left foretells the wait that the limit alone would not', () => {
    const cost = { requests: 40, actions: 0 };
    expect(forecastWarning(cost, 20, limitsReported(300, undefined))).toBeUndefined();
    const warning = forecastWarning(cost, 20, limitsReported(300, undefined, { requests: 12 }))!;
    expect(warning.summary).toBe('The apply will wait for the API\'s rate limits: more than 12 requests with this token');
    expect(warning.detail).toContain('the token may send 300 a minute (as the API\'s answers to this plan report it) and had 12 left at this plan\'s last answer');
  });
});
