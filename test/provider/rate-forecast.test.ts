import { addCosts, bindingLimit, forecastWarning, powerCost, settingsCost, SHARED_READS } from '../../src/provider/rate-forecast';

describe('what an apply will spend of the token\'s limits, foretold at plan', () => {
  test('each kind\'s cost: settings are their writes and the read of a saved plan\'s apply; power is a read, then each action and its polls', () => {
    expect([settingsCost(1), settingsCost(3), powerCost(0), powerCost(2)]).toEqual([
      { requests: 2, actions: 0 }, { requests: 4, actions: 0 }, { requests: 0, actions: 0 }, { requests: 7, actions: 2 },
    ]);
  });

  test('within a minute\'s budget nothing is said; past it, the limit that binds first, actions before requests', () => {
    const firewalls = (n: number) => Array.from({ length: n }, () => settingsCost(1)).reduce(addCosts, SHARED_READS);
    expect(bindingLimit(firewalls(58))).toBeUndefined();
    expect(bindingLimit(firewalls(59))).toEqual({ what: 'requests', count: 121, limit: 120 });
    expect(bindingLimit(addCosts(firewalls(59), powerCost(11)))).toMatchObject({ what: 'power actions', count: 11, limit: 10 });
    expect(forecastWarning(firewalls(58), 58)).toBeUndefined();
  });

  test('the warning names the limit, the count and about how long, in minutes', () => {
    const warning = forecastWarning({ requests: 370, actions: 0 }, 180)!;
    expect(warning.summary).toBe('The apply will wait for the API\'s rate limits: more than 120 requests with this token');
    expect(warning.detail).toContain('This plan\'s first 180 changes already take about 370 requests; the token may send 120 a minute (the API\'s limit, section 8), so the apply waits about 3 minutes or more');
  });
});
