import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TerraformStack } from 'cdktf';
import { Bridge, HostingApi, IpSettings, Layer4Protection, Layer7Protection, PowerState, PowerStateValue, ServerFirewall } from '../../src';
import { defaultSeed, SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

const addresses = (output: string, verb: RegExp) => [...output.matchAll(new RegExp(`# ([a-z_]+\\.[A-Za-z0-9_]+) ${verb.source}`, 'g'))].map((m) => m[1].replace(/_[0-9A-F]{8}$/, ''));
const isProvider = (bridge: Bridge) => bridge === Bridge.PROVIDER;

/** Every suite here runs against the provider (the default) and the terraform_data bridge. */
const BRIDGES = [Bridge.PROVIDER, Bridge.TERRAFORM_DATA];

interface ExampleOptions {
  readonly rdns: string;
  readonly state: PowerStateValue;
  readonly image: string;
}

function example(sim: RunningSimulator, bridge: Bridge, o: ExampleOptions) {
  return (stack: TerraformStack) => {
    const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl, bridge });
    const fw = new ServerFirewall(stack, 'fw', { api, serverId: IDS.vpsRunning, enabled: true, rulesets: [1], rulesetNames: ['ssh'] });
    new IpSettings(stack, 'ip', {
      api,
      serverId: IDS.dedicated,
      ip: IPS.secondary,
      rdns: o.rdns,
      description: 'web',
      protection: { layer4: Layer4Protection.PERMANENT, layer7: Layer7Protection.ONLY },
    });
    new PowerState(stack, 'power', { api, serverId: IDS.vpsStopped, state: o.state, rebootTriggers: { image: o.image }, dependsOn: [fw] });
  };
}

describe.each(BRIDGES)('bridge %s', (bridge) => {
  describeWithTerraform('terraform apply end to end: the lifecycle of an example stack', () => {
    let sim: RunningSimulator;
    // The provider: one resource per construct. The bridge: a reboot resource and its armed record too.
    const resourceCount = isProvider(bridge) ? 3 : 5;
    let ws: TerraformWorkspace;
    const start: ExampleOptions = { rdns: 'web1.example.com', state: PowerStateValue.RUNNING, image: 'v1' };

    beforeAll(async () => {
      sim = await simulatorWithSentinel();
      ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
      ws.synth(example(sim, bridge, start));
      const init = await ws.init();
      expect(init.code).toBe(0);
    });
    afterAll(async () => {
      await sim?.close();
      ws?.dispose();
    });

    test('1. the first apply converges every kind; the simulator matches the stack; no reboot on creation', async () => {
      const run = await ws.apply();
      expect(run.code).toBe(0);
      expect(run.output).toContain(`Apply complete! Resources: ${resourceCount} added, 0 changed, 0 destroyed.`);
      expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
      expect(sim.state.server(IDS.dedicated).ipSettings.get(IPS.secondary)).toMatchObject({
        rdns: 'web1.example.com', description: 'web', protection: { layer4: 'permanent', layer7: 'only' },
      });
      expect(sim.state.server(IDS.vpsStopped).server.power).toBe('running');
      if (!isProvider(bridge)) expect(run.output).toContain(`reboot ${IDS.vpsStopped}: first creation, no reboot`);
      expect(sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['start']);
    });

    test('2. a second apply plans no change and writes nothing (the bridge makes no request; the provider only reads)', async () => {
      const before = sim.requests.length;
      expect((await ws.plan()).code).toBe(0);
      const run = await ws.apply();
      expect(run.output).toContain('No changes.');
      const requests = sim.requests.slice(before);
      expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
      if (!isProvider(bridge)) expect(requests).toEqual([]);
    });

    test('3. changing one prop changes only that resource (in place with the provider), and only that field is written', async () => {
      const writesBefore = sim.executed().length;
      ws.synth(example(sim, bridge, { ...start, rdns: 'web2.example.com' }));
      const run = await ws.apply();
      expect(run.code).toBe(0);
      if (isProvider(bridge)) expect(addresses(run.output, /will be updated in-place/)).toEqual(['hosting_ip_settings.ip_resource']);
      else expect(addresses(run.output, /must be replaced/)).toEqual(['terraform_data.ip_bridge']);
      expect(sim.executed().slice(writesBefore).map((w) => `${w.kind} ${w.detail}`)).toEqual(['ip_settings {"rdns":"web2.example.com"}']);
    });

    test('4. a reboot trigger change reboots exactly once', async () => {
      const boots = sim.state.server(IDS.vpsStopped).bootCount;
      ws.synth(example(sim, bridge, { ...start, rdns: 'web2.example.com', image: 'v2' }));
      const run = await ws.apply();
      expect(run.code).toBe(0);
      if (isProvider(bridge)) expect(addresses(run.output, /will be updated in-place/)).toEqual(['hosting_power_state.power_resource']);
      else expect(addresses(run.output, /must be replaced/)).toEqual(['terraform_data.power_reboot']);
      expect(sim.state.server(IDS.vpsStopped).bootCount).toBe(boots + 1);
      expect(sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['start', 'reboot']);
    });

    test('5. switching state stops once and does not reboot', async () => {
      ws.synth(example(sim, bridge, { ...start, rdns: 'web2.example.com', image: 'v2', state: PowerStateValue.STOPPED }));
      const run = await ws.apply();
      expect(run.code).toBe(0);
      if (isProvider(bridge)) expect(addresses(run.output, /will be updated in-place/)).toEqual(['hosting_power_state.power_resource']);
      else expect(addresses(run.output, /must be replaced/)).toEqual(['terraform_data.power_bridge']);
      expect(sim.state.server(IDS.vpsStopped).server.power).toBe('stopped');
      expect(sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['start', 'reboot', 'shutdown']);
    });

    test('6. drift is corrected: by a plain apply with the provider, by re-applying the bridge resource (-replace) with a bridge', async () => {
      sim.drift(IDS.vpsRunning, { firewall: { enabled: false } });
      const writesBefore = sim.executed().length;
      if (isProvider(bridge)) {
        const run = await ws.apply();
        expect(run.output).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
      } else {
        const addr = (await ws.terraform(['state', 'list'])).output.split('\n').find((l) => l.startsWith('terraform_data.fw_bridge'))!;
        const run = await ws.apply(`-replace=${addr}`);
        expect(run.output).toContain(`firewall ${IDS.vpsRunning}: enabled false -> true`);
      }
      expect(sim.executed().slice(writesBefore).map((w) => w.detail)).toEqual(['{"enabled":true}']);
      expect(sim.state.server(IDS.vpsRunning).firewall?.enabled).toBe(true);
    });

    test('7. destroy retains every setting and writes nothing', async () => {
      const before = sim.requests.length;
      const run = await ws.destroy();
      expect(run.code).toBe(0);
      expect(run.output).toContain(`Destroy complete! Resources: ${resourceCount} destroyed.`);
      expect(sim.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
      if (!isProvider(bridge)) {
      // The reboot resource is an event, not a setting: it has nothing to retain and runs nothing.
        expect(run.output.match(/destroy retains the server's current settings; no request made/g)).toHaveLength(3);
        expect(sim.requests.length).toBe(before);
      }
      expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
    });

    test('8. the token appears nowhere in the synth output or the Terraform state', () => {
      const text = ws.allText();
      expect(text).toContain('HOSTING_API_TOKEN');
      expect(text).toContain('"serial"');
      expect(text).not.toContain(SENTINEL_TOKEN);
    });
  });

});

describe.each(BRIDGES)('bridge %s', (bridge) => {
  describeWithTerraform('terraform apply end to end: failures and load', () => {
    let sim: RunningSimulator | undefined;
    let ws: TerraformWorkspace | undefined;
    afterEach(async () => {
      await sim?.close();
      ws?.dispose();
    });

    test.each<[string, NodeJS.Signals, boolean]>([
      ['cut off by Ctrl-C', 'SIGINT', false],
      ['killed', 'SIGKILL', false],
      // Issue 60 §2: a provider the signal ended mid-RPC made Terraform's graceful stop "Plugin did not respond"
      // (a handler the signal ends is a process killed, as above).
      ...(isProvider(bridge) ? [['sent SIGTERM with its process group (a cancelled CI job)', 'SIGTERM', true] as [string, NodeJS.Signals, boolean]] : []),
    ])('an apply %s mid-action is re-run and converges with no action run twice', async (_how, signal, signalGroup) => {
    // Long enough that an interrupt which did not end the provider's wait would show.
      sim = await simulatorWithSentinel({ operationDelays: { queuedMs: 200, runningMs: 8_000 } });
      ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
      const s = sim;
      ws.synth((stack) => {
        const api = new HostingApi(stack, 'hosting', { baseUrl: s.baseUrl, bridge });
        new PowerState(stack, 'power', { api, serverId: IDS.vpsRunning, state: PowerStateValue.STOPPED });
      });
      expect((await ws.init()).code).toBe(0);
      // Interrupt once the action was accepted, while the run follows its operation.
      let interruptedAt = 0;
      const interrupted = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], {
        until: () => s.executed({ kind: 'action' }).length > 0 && (interruptedAt ||= performance.now()) > 0,
        signal,
        signalGroup,
      });
      expect(interrupted.code).not.toBe(0);
      if (isProvider(bridge) && signal !== 'SIGKILL') {
        expect(interrupted.output).not.toMatch(/Plugin did not respond|handshake|plugin exited/);
        // StopProvider ends the wait at once, or cuts off the poll in flight; Terraform reports it and stops.
        expect(performance.now() - interruptedAt).toBeLessThan(4_000);
        expect(interrupted.output).toMatch(/stopped: Terraform asked the provider to stop \(Ctrl-C, or a stop signal to terraform\)|stopped while the request was in flight/);
      }
      const retried = await ws.apply();
      expect(retried.code).toBe(0);
      if (!isProvider(bridge)) expect(retried.output).toMatch(new RegExp(`power ${IDS.vpsRunning}: (stopped \\(confirmed\\)|in sync \\(stopped\\))`));
      expect(sim.state.server(IDS.vpsRunning).server.power).toBe('stopped');
      expect(sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['shutdown']);
      expect((await ws.plan()).code).toBe(0);
    });

    test('an operation the API no longer knows (404) is resolved by reading the server, in the same apply', async () => {
      sim = await simulatorWithSentinel();
      ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
      const s = sim;
      ws.synth((stack) => {
        const api = new HostingApi(stack, 'hosting', { baseUrl: s.baseUrl, bridge });
        new PowerState(stack, 'power', { api, serverId: IDS.vpsRunning, state: PowerStateValue.STOPPED });
        new ServerFirewall(stack, 'fw', { api, serverId: IDS.vdsRunning, enabled: false });
      });
      expect((await ws.init()).code).toBe(0);
      sim.addFault({ endpoint: 'GET /servers/{serverId}/operations/{operationId}', times: 1, effect: { type: 'error', status: 404, code: 'not_found' } });
      // The provider's lines reach Terraform's log (TF_LOG); the handler's, the output.
      const run = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { env: { TF_LOG_PROVIDER: 'INFO' } });
      expect(run.code).toBe(0);
      expect(run.output).toMatch(/shutdown outcome unknown \(operation op_\d+ is no longer known to the API/);
      expect(run.output).toContain(`power ${IDS.vpsRunning}: stopped (confirmed after an unknown outcome)`);
      expect(sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['shutdown']);
      expect((await ws.apply()).output).toContain('No changes.');
    });

    // Bridges only: the provider's own import is tested in provider.test.ts.
    if (!isProvider(bridge)) {
      test('a bridge resource brought in by terraform import does not wedge later applies', async () => {
        sim = await simulatorWithSentinel();
        ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
        const s = sim;
        ws.synth((stack) => {
          const api = new HostingApi(stack, 'hosting', { baseUrl: s.baseUrl, bridge });
          new ServerFirewall(stack, 'fw', { api, serverId: IDS.vpsRunning, enabled: true });
        });
        expect((await ws.init()).code).toBe(0);
        const address = `terraform_data.${Object.keys(JSON.parse(readFileSync(join(ws.stackDir, 'cdk.tf.json'), 'utf8')).resource.terraform_data)[0]}`;
        const imported = await ws.terraform(['import', '-input=false', '-no-color', address, 'imported-by-hand']);
        expect(imported.code).toBe(0);
        const run = await ws.apply();
        expect(run.code).toBe(0);
        expect(run.output).toContain('resource (its stored document could not be read): destroy retains the server\'s current settings; no request made');
        expect(sim.state.server(IDS.vpsRunning).firewall?.enabled).toBe(true);
        expect((await ws.plan()).code).toBe(0);
      });
    }

    test('24 firewalls at -parallelism=10 under 40 requests per window: under 5% answers 429, zero failures, each write once', async () => {
      const base = defaultSeed();
      const template = base.servers[0];
      const servers = Array.from({ length: 24 }, (_, i) => ({
        ...template,
        server: { ...template.server, id: `vps_load_${i + 1}`, name: `load-${i + 1}` },
        firewall: { enabled: false, rulesets: [] },
      }));
      // 48 requests against 40 per window (section 8's scale of a minute, shrunk to 6 s): it binds.
      const seed = { ...base, servers: [...base.servers, ...servers] };
      sim = await simulatorWithSentinel({ seed, limits: { requestsPerToken: 40, windowMs: 6_000 } });
      ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
      const s = sim;
      ws.synth((stack) => {
        const api = new HostingApi(stack, 'hosting', { baseUrl: s.baseUrl, bridge });
        servers.forEach((srv, i) => new ServerFirewall(stack, `fw${i}`, { api, serverId: srv.server.id, enabled: true }));
      });
      expect((await ws.init()).code).toBe(0);
      const run = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=10'], { env: { TF_LOG_PROVIDER: 'INFO' } });
      expect(run.code).toBe(0);
      expect(run.output).toContain('Apply complete! Resources: 24 added');
      expect(servers.every((srv) => s.state.server(srv.server.id).firewall?.enabled)).toBe(true);
      expect(sim.executed()).toHaveLength(24);
      // The handler processes pace themselves as one client through their shared budget file; the provider is one client.
      const refused = sim.requests.filter((r) => r.status === 429).length;
      expect(refused / sim.requests.length).toBeLessThan(0.05);
      expect(run.output).toMatch(/limit of \d+ requests (a minute|per window) is spent; waiting [\d.]+ s for it to reset/);
    });

  });
});
