import { HostingApiError } from '../../src/api';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { useSimulator } from '../helpers/simulator';

const DED = IDS.dedicated;

describe('with the default limits', () => {
  const s = useSimulator({ operationDelays: { queuedMs: 100, runningMs: 400 } });

  test('all fifteen endpoints through the typed client, validated against the shared schemas', async () => {
    const c = s.client();
    expect((await c.connect()).data).toMatchObject({ accountId: 4711, apiVersion: 'v1' });
    expect((await c.listServers()).data.map((x) => x.id)).toContain(IDS.vpsRunning);
    expect((await c.getServer(IDS.vpsRunning)).data.actions).toContain('reboot');
    expect((await c.getMetrics(IDS.vpsRunning)).data.cpuPercent).toBe(12.5);
    const op = await c.runAction(IDS.vpsRunning, 'reboot', 'e2e-reboot-key-1');
    expect(op.data.status).toBe('queued');
    expect((await c.getOperation(IDS.vpsRunning, op.data.id)).data.id).toBe(op.data.id);
    expect((await c.waitForOperation(IDS.vpsRunning, op.data.id)).status).toBe('succeeded');
    expect((await c.listIps(DED)).data.filter((e) => e.version === 'ipv4')).toHaveLength(3);
    expect((await c.getIpSettings(DED, IPS.secondary)).data.rdns).toBeNull();
    expect((await c.updateIpSettings(DED, IPS.secondary, { rdns: 'web2.example.com' }, 'e2e-rdns-key-1')).data.rdns).toBe('web2.example.com');
    expect((await c.getTraffic(DED)).data.kind).toBe('rates');
    expect((await c.getTraffic(IDS.vpsRunning)).data.kind).toBe('monthly');
    expect((await c.getDdosStatus(DED)).data.address).toBe(IPS.primary);
    expect((await c.getDdosStatus(DED, IPS.secondary)).data.address).toBe(IPS.secondary);
    expect((await c.getDdosRules(DED, IPS.primary)).data.available).toBe(true);
    expect((await c.listRulesets()).data.map((r) => r.name)).toEqual(['web', 'ssh', 'mail', 'monitoring']);
    expect((await c.getFirewall(IDS.vpsRunning)).data).toEqual({ enabled: false, rulesets: [] });
    expect((await c.updateFirewall(IDS.vpsRunning, { enabled: true, rulesets: [1, 2] }, 'e2e-fw-key-1')).data).toEqual({ enabled: true, rulesets: [1, 2] });
  });

  test('injected 503s are retried through and the write runs once', async () => {
    s.sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 3, effect: { type: 'error', status: 503 } });
    const res = await s.client().updateFirewall(IDS.vpsRunning, { enabled: true }, 'e2e-503-key-1');
    expect(res.data.enabled).toBe(true);
    expect(s.sim.requests.filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([503, 503, 503, 200]);
    expect(s.sim.executed({ kind: 'firewall' })).toHaveLength(1);
  });

  test('a lost action response is retried with the same key: replayed, exactly one action executed', async () => {
    s.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'drop_response' } });
    const c = s.client();
    const res = await c.runAction(IDS.vpsRunning, 'shutdown', 'e2e-lost-key-1');
    expect(res.replayed).toBe(true);
    expect(s.sim.executed({ kind: 'action' })).toHaveLength(1);
    expect((await c.waitForOperation(IDS.vpsRunning, res.data.id)).status).toBe('succeeded');
    expect((await c.getServer(IDS.vpsRunning)).data.power).toBe('stopped');
  });

  test('outcome_unknown and refusals surface as typed errors, not retried', async () => {
    s.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status: 503, code: 'outcome_unknown', takesEffect: true } });
    const err = await s.client().runAction(IDS.vpsRunning, 'reboot', 'e2e-unknown-key').catch((e) => e);
    expect(err).toBeInstanceOf(HostingApiError);
    expect(err).toMatchObject({ status: 503, code: 'outcome_unknown', requestId: expect.stringMatching(/^req_/) });
    expect(s.sim.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    const scope = await s.client({ tokenName: 'read-only' }).updateFirewall(IDS.vpsRunning, { enabled: true }, 'e2e-scope-key').catch((e) => e);
    expect(scope.message).toMatch(/^403 insufficient_scope on PUT \/servers\/vps_web_1\/firewall \(request id req_[0-9a-f]+\): /);
  });
});

describe('with a small request budget', () => {
  const s = useSimulator({ limits: { requestsPerToken: 3, windowMs: 5_000 } });

  test('pacing waits for the reset instead of collecting 429s', async () => {
    const c = s.client();
    for (let i = 0; i < 7; i++) await c.listRulesets();
    const statuses = s.sim.requests.map((r) => r.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200]);
  });

  test('a 429 from another process spending the budget is waited out via Retry-After', async () => {
    const other = s.client({ tokenName: 'full' });
    const c = s.client();
    await c.listRulesets();
    for (let i = 0; i < 2; i++) await other.listRulesets();
    const before = s.clock.ms;
    await c.listRulesets();
    expect(s.sim.requests.map((r) => r.status)).toEqual([200, 200, 200, 429, 200]);
    expect(s.clock.ms - before).toBeGreaterThanOrEqual(5_000);
  });
});
