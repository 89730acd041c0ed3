import { DataResource, type TerraformStack } from 'cdktf';
import { HostingApi, IpSettings, Layer4Protection, Layer7Protection, OnDestroy, PowerState, PowerStateValue, ServerFirewall } from '../../src';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/**
 * The provider's correctness with the real terraform against the simulator: an apply's failure
 * never decides the next apply, every HostingApi reaches its own API, values not known at plan
 * time are planned, a stop stops, and what cannot work is refused at plan time.
 */
describeWithTerraform('provider correctness end to end', () => {
  let sim: RunningSimulator;
  const workspaces: TerraformWorkspace[] = [];
  const workspace = async (define: (stack: TerraformStack, api: HostingApi) => void) => {
    const ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
    workspaces.push(ws);
    const synth = (body: typeof define) => ws.synth((stack) => body(stack, new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl })));
    synth(define);
    expect((await ws.init()).code).toBe(0);
    return Object.assign(ws, { resynth: synth });
  };
  const executed = (serverId: string, kind: 'action' | 'ip_settings' | 'firewall') => sim.executed({ serverId, kind }).map((w) => w.detail);

  beforeAll(async () => {
    // Power operations take three seconds: room for a Ctrl-C while one is in flight.
    sim = await simulatorWithSentinel({ operationDelays: { queuedMs: 1_000, runningMs: 2_000 } });
  });
  afterAll(async () => {
    await sim?.close();
    workspaces.forEach((ws) => ws.dispose());
  });

  describe('a failure in one apply never decides the next apply', () => {
    test('a graceful shutdown whose operation failed: after the OS is fixed, the next apply sends exactly one new shutdown', async () => {
      const power = (state: PowerStateValue) => (stack: TerraformStack, api: HostingApi) => new PowerState(stack, 'p', { api, serverId: IDS.vpsRunning, state });
      const ws = await workspace(power(PowerStateValue.RUNNING));
      expect((await ws.apply()).code).toBe(0);
      ws.resynth(power(PowerStateValue.STOPPED));
      sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', serverId: IDS.vpsRunning, times: 1, effect: { type: 'operation', outcome: { status: 'failed', takesEffect: false } } });
      const failed = await ws.apply();
      expect(failed.code).toBe(1);
      expect(failed.output).toMatch(/power vps_web_1: shutdown failed: operation op_\d+ failed/);
      expect(executed(IDS.vpsRunning, 'action')).toEqual(['shutdown']);
      const again = await ws.apply();
      expect(again.code).toBe(0);
      expect(executed(IDS.vpsRunning, 'action')).toEqual(['shutdown', 'shutdown']);
      expect((await ws.plan()).code).toBe(0);
    });

    test('Ctrl-C during a start, then the server stopped out of band: the next apply starts it once and succeeds', async () => {
      const power = (state: PowerStateValue) => (stack: TerraformStack, api: HostingApi) => new PowerState(stack, 'p', { api, serverId: IDS.vpsStopped, state });
      const ws = await workspace(power(PowerStateValue.STOPPED));
      expect((await ws.apply()).code).toBe(0);
      ws.resynth(power(PowerStateValue.RUNNING));
      const started = () => sim.executed({ serverId: IDS.vpsStopped, kind: 'action' }).length > 0;
      const interrupted = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { until: started });
      expect(interrupted.code).not.toBe(0);
      // The stop lands in a wait or cuts off the request in flight (an operation poll), as timing has it.
      expect(interrupted.output).toMatch(/Terraform asked the provider to stop|stopped while the request was in flight/);
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      sim.drift(IDS.vpsStopped, { power: 'stopped' });
      const again = await ws.apply();
      expect(again.output).not.toContain('succeeded but the server reports');
      expect(again.code).toBe(0);
      expect(executed(IDS.vpsStopped, 'action')).toEqual(['start', 'start']);
    });

    test('a PATCH refused 423 while the service is locked lands once the lock is lifted', async () => {
      const ip = (description: string) => (stack: TerraformStack, api: HostingApi) => new IpSettings(stack, 'ip', { api, serverId: IDS.dedicated, ip: IPS.secondary, description });
      const ws = await workspace(ip('before'));
      expect((await ws.apply()).code).toBe(0);
      ws.resynth(ip('after'));
      sim.drift(IDS.dedicated, { status: 'suspended' });
      const locked = await ws.apply();
      expect(locked.code).toBe(1);
      expect(locked.output).toContain('API: 423 service_locked');
      sim.drift(IDS.dedicated, { status: 'active' });
      expect((await ws.apply()).code).toBe(0);
      expect(executed(IDS.dedicated, 'ip_settings')).toEqual(['{"description":"before"}', '{"description":"after"}']);
    });
  });

  describe('values not known at plan time are planned, never crashed on', () => {
    test('an rDNS that comes from a resource created in the same apply', async () => {
      const ip = (rdns: (stack: TerraformStack) => string) => (stack: TerraformStack, api: HostingApi) =>
        new IpSettings(stack, 'ip', { api, serverId: IDS.dedicated, ip: IPS.locked, description: 'locked rdns', rdns: rdns(stack) });
      const ws = await workspace(ip(() => 'static.203-0-113-12.provider.example'));
      expect((await ws.apply()).code).toBe(0);
      ws.resynth(ip((stack) => new DataResource(stack, 'name', { input: 'static.203-0-113-12.provider.example' }).getStringAttribute('output')));
      const plan = await ws.plan();
      expect(plan.output).not.toContain('toLowerCase');
      expect(plan.output).toMatch(/~ rdns\s+= "static\.203-0-113-12\.provider\.example" -> \(known after apply\)/);
      const run = await ws.apply();
      expect(run.code).toBe(0);
      expect((await ws.plan()).code).toBe(0);
    });

    test('removing ruleset_names plans exactly what apply returns', async () => {
      const fw = (names?: string[]) => (stack: TerraformStack, api: HostingApi) => new ServerFirewall(stack, 'fw', { api, serverId: IDS.vdsRunning, enabled: true, rulesetNames: names });
      const ws = await workspace(fw(['web']));
      expect((await ws.apply()).code).toBe(0);
      ws.resynth(fw());
      const run = await ws.apply();
      expect(run.output).not.toContain('inconsistent result');
      expect(run.code).toBe(0);
      expect((await ws.plan()).code).toBe(0);
    });
  });

  test('a stop stops: after Ctrl-C no request starts, and the one in flight is cut off', async () => {
    const ip = (n: number) => (stack: TerraformStack, api: HostingApi) => new IpSettings(stack, 'ip', {
      api,
      serverId: IDS.dedicated,
      ip: IPS.primary,
      rdns: `stop${n}.example.com`,
      description: `stop ${n}`,
      protection: { layer4: n % 2 ? Layer4Protection.PERMANENT : Layer4Protection.DYNAMIC, layer7: Layer7Protection.OFF },
    });
    const ws = await workspace(ip(1));
    expect((await ws.apply()).code).toBe(0);
    ws.resynth(ip(2));
    sim.addFault({ endpoint: 'PATCH /servers/{serverId}/ips/{ip}', times: 3, effect: { type: 'latency', ms: 1_500 } });
    const before = sim.requests.length;
    const run = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], {
      env: { TF_LOG_PROVIDER: 'INFO' },
      until: (output) => /ip settings ded_\S+ 203\.0\.113\.10: rdns "stop1/.test(output),
    });
    expect(run.code).not.toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    const patches = sim.requests.slice(before).filter((r) => r.endpoint === 'PATCH /servers/{serverId}/ips/{ip}');
    expect(patches.length).toBeLessThanOrEqual(1);
    sim.clearFaults();
  });

  test('a server id the account does not have is refused at plan time, naming it', async () => {
    const ws = await workspace((stack, api) => new PowerState(stack, 'p', { api, serverId: 'vps_web_9', state: PowerStateValue.RUNNING }));
    const plan = await ws.plan();
    expect(plan.code).toBe(1);
    expect(plan.output).toMatch(/server "vps_web_9" does not exist on account \d+ \(token "[^"]+"\) at http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
    // The closest ids it has, the likeliest typo first.
    expect(plan.output).toMatch(/the closest are vps_web_1 \("web-1"\), vps_web_2/);
    expect(plan.output).toContain('with hosting_power_state.p');
  });

  test('a create of IP settings that failed halfway: its replacement restores nothing in between, writes only what is left, and keeps the first values to restore', async () => {
    const ip = (stack: TerraformStack, api: HostingApi) => new IpSettings(stack, 'ip', {
      api,
      serverId: IDS.dedicated,
      ip: IPS.secondary,
      rdns: 'half.example.com',
      description: 'half',
      protection: { layer4: Layer4Protection.PERMANENT, layer7: Layer7Protection.ONLY },
      onDestroy: OnDestroy.RESTORE,
    });
    const original = (await (await fetch(`${sim.controlUrl}/state`)).json() as any).servers.find((s: any) => s.server.id === IDS.dedicated);
    const before = sim.executed({ kind: 'ip_settings' }).length;
    const ws = await workspace(ip);
    sim.addFault({ endpoint: 'PATCH /servers/{serverId}/ips/{ip}', skip: 2, times: 1, effect: { type: 'error', status: 423, code: 'service_locked' } });
    expect((await ws.apply()).code).toBe(1);
    const retried = await ws.apply();
    expect(retried.code).toBe(0);
    // The old object's removal leaves what its replacement writes again: a line of the log, no warning.
    expect(retried.output).not.toContain('its create had not completed');
    const writes = () => sim.executed({ kind: 'ip_settings' }).slice(before).map((w) => w.detail);
    expect(writes()).toEqual(['{"rdns":"half.example.com"}', '{"description":"half"}', '{"protection":{"layer4":"permanent","layer7":"only"}}']);
    const destroyed = await ws.destroy();
    expect(destroyed.code).toBe(0);
    const was = original.ipSettings.find((s: any) => s.address === IPS.secondary);
    // The API cannot clear a field that was empty before: the plan says which stay, and the apply warns of nothing more.
    const set = { rdns: 'half.example.com', description: 'half' };
    const stay = Object.entries(set).filter(([f]) => was[f] === null).map(([f, v]) => `${f} "${v}"`);
    const warned = stay.length ? [`which the API cannot clear (${stay.join(', ')})`] : [];
    expect(destroyed.output.replace(/\s+/g, ' ').match(/which the API cannot clear \([^)]*\)/g) ?? []).toEqual(warned);
    expect(destroyed.output.match(/Warning: /g) ?? []).toHaveLength(warned.length);
    expect(writes().slice(3).map((w) => Object.keys(JSON.parse(w))[0]).sort()).toEqual(['description', 'protection', 'rdns'].filter((f) => was[f] !== null).sort());
  });

  test('a firewall restored after one of its earlier rule sets was deleted: the destroy plan names it, the apply puts back the rest', async () => {
    const server = IDS.vpsStopped;
    const record = sim.state.server(server);
    record.firewall = { enabled: true, rulesets: [2, 4] };
    const ws = await workspace((stack, api) => new ServerFirewall(stack, 'fw', { api, serverId: server, rulesets: [1], onDestroy: OnDestroy.RESTORE, expectTakeover: true }));
    expect((await ws.apply()).code).toBe(0);
    const index = sim.state.rulesets.findIndex((r) => r.id === 4);
    const deleted = sim.state.rulesets.splice(index, 1);
    try {
      const destroyed = await ws.destroy();
      expect(destroyed.code).toBe(0);
      const detail = `The apply leaves the firewall of ${server} without rule set 4, which it had before this resource and the account no longer has.`;
      expect(destroyed.output.replace(/\s+/g, ' ')).toContain(detail);
      expect(destroyed.output.match(/Warning: /g)).toHaveLength(1);
      expect(record.firewall).toEqual({ enabled: true, rulesets: [2] });
    } finally {
      sim.state.rulesets.splice(index, 0, ...deleted);
    }
  });

  test('two HostingApi connections in one stack: each resource reaches the API its construct names', async () => {
    const other = await simulatorWithSentinel();
    try {
      const ws = await workspace((stack, api) => {
        const production = new HostingApi(stack, 'production', { baseUrl: other.baseUrl });
        new ServerFirewall(stack, 'staging-fw', { api, serverId: IDS.vpsRunning, enabled: true });
        new ServerFirewall(stack, 'production-fw', { api: production, serverId: IDS.vpsRunning, rulesets: [3] });
      });
      expect((await ws.apply()).code).toBe(0);
      expect(executed(IDS.vpsRunning, 'firewall')).toEqual(['{"enabled":true}']);
      expect(other.executed({ kind: 'firewall' }).map((w) => w.detail)).toEqual(['{"rulesets":[3]}']);
      expect((await ws.plan()).code).toBe(0);
    } finally {
      await other.close();
    }
  });
});
