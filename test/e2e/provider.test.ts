import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TerraformStack } from 'cdktf';
import { HostingApi, IpSettings, Layer4Protection, Layer7Protection, OnDestroy, PowerState, PowerStateValue, ServerFirewall, type IpSettingsProps } from '../../src';
import { createServerCertificate } from '../../src/provider/plugin/certificate';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

interface StackOptions {
  readonly ip?: Partial<IpSettingsProps>;
  readonly image?: string;
  readonly hardReboot?: boolean;
  readonly rulesets?: number[];
  readonly adoptVds?: boolean;
}

/**
 * The provider (the default bridge) with the real terraform: it ships inside the synthesized stack
 * and is installed from it offline, with mutual TLS (nothing sets TF_DISABLE_PLUGIN_TLS).
 * Terraform reads the servers, so drift shows in `plan` and `apply` repairs it in place.
 */
describeWithTerraform('the hosting provider end to end: every kind, drift, updates in place, import, restore', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  const define = (o: StackOptions = {}) => (stack: TerraformStack) => {
    const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl });
    new ServerFirewall(stack, 'fw', { api, serverId: IDS.vpsRunning, enabled: true, rulesets: o.rulesets });
    new IpSettings(stack, 'ip', { api, serverId: IDS.dedicated, ip: IPS.primary, rdns: 'web1.example.com', description: 'web', onDestroy: OnDestroy.RESTORE, ...o.ip });
    new PowerState(stack, 'power', { api, serverId: IDS.vpsStopped, state: PowerStateValue.RUNNING, rebootTriggers: { image: o.image ?? 'v1' }, hardReboot: o.hardReboot });
    if (o.adoptVds) new ServerFirewall(stack, 'vds', { api, serverId: IDS.vdsRunning, rulesets: [1] }).importExisting();
  };
  let seen = 0;
  /** Writes and actions carried out since the last call. */
  const newWrites = () => {
    const all = sim.executed().map((w) => `${w.kind} ${w.detail}`);
    const fresh = all.slice(seen);
    seen = all.length;
    return fresh;
  };
  /** Requests of a saved plan's apply alone: the plan's refresh already read every resource. */
  const applyPhaseRequests = async () => {
    expect((await ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan'])).code).toBe(0);
    const before = sim.requests.length;
    const run = await ws.terraform(['apply', '-input=false', '-no-color', 'tfplan']);
    return { run, requests: sim.requests.slice(before).map((r) => r.endpoint) };
  };

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
    ws.synth(define());
    const init = await ws.init();
    expect(init.code).toBe(0);
    // The stack's lock file already holds the provider's hash for every platform.
    expect(init.output).not.toContain('Incomplete lock file information');
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('create reconciles each kind with only the writes needed, never reboots, and the next plan is empty', async () => {
    const { run, requests } = await applyPhaseRequests();
    expect(run.code).toBe(0);
    // The apply phase's plan of the firewall reads what it takes over; its apply writes from that read.
    expect(requests.filter((r) => r === 'GET /servers/{serverId}/firewall')).toHaveLength(1);
    expect(run.output).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
    expect(newWrites().sort()).toEqual(['action start', 'firewall {"enabled":true}', 'ip_settings {"description":"web"}', 'ip_settings {"rdns":"web1.example.com"}']);
    expect((await ws.plan()).code).toBe(0);
  });

  test('an in-sync plan reads each resource once, the power states through one GET /servers, and writes nothing', async () => {
    const before = sim.requests.length;
    expect((await ws.plan()).code).toBe(0);
    const reads = sim.requests.slice(before).map((r) => r.endpoint).sort();
    // The token tested (ConfigureProvider), then the reads.
    expect(reads).toEqual(['GET /connect', 'GET /servers', 'GET /servers/{serverId}/firewall', 'GET /servers/{serverId}/ips/{ip}']);
    expect(newWrites()).toEqual([]);
  });

  test('drift of a firewall, an rDNS and a power state shows in plan per attribute, and apply repairs it in place with exactly the writes needed', async () => {
    sim.drift(IDS.vpsRunning, { firewall: { enabled: false } });
    sim.drift(IDS.dedicated, { ip: { address: IPS.primary, rdns: 'hijacked.example.com' } });
    sim.drift(IDS.vpsStopped, { power: 'stopped' });
    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.output).toMatch(/~ enabled\s+= false -> true/);
    expect(plan.output).toMatch(/~ rdns\s+= "hijacked.example.com" -> "web1.example.com"/);
    expect(plan.output).toMatch(/~ state\s+= "stopped" -> "running"/);
    expect(plan.output).toContain('Plan: 0 to add, 3 to change, 0 to destroy.');
    const { run, requests } = await applyPhaseRequests();
    expect(run.output).toContain('Apply complete! Resources: 0 added, 3 changed, 0 destroyed.');
    expect(newWrites().sort()).toEqual(['action start', 'firewall {"enabled":true}', 'ip_settings {"rdns":"web1.example.com"}']);
    // Firewall and IP: one read before the write (the plan's refresh may be hours old; what moved
    // since is named), the write's answer checked whole. Power: the apply walk's plan reads the
    // server (the list has no operation in flight nor the actions on offer) and checks the start
    // is offered; its apply starts from that read: the action, its polls, one confirming read.
    const count = (endpoint: string) => requests.filter((r) => r === endpoint).length;
    expect(count('PUT /servers/{serverId}/firewall')).toBe(1);
    expect(count('GET /servers/{serverId}/firewall')).toBe(1);
    expect(count('PATCH /servers/{serverId}/ips/{ip}')).toBe(1);
    expect(count('GET /servers/{serverId}/ips/{ip}')).toBe(1);
    expect(count('POST /servers/{serverId}/actions')).toBe(1);
    expect(count('GET /servers/{serverId}')).toBe(2);
    expect((await ws.plan()).code).toBe(0);
  });

  test('each attribute updates in place, writing only what changed; settings other than the triggers never reboot', async () => {
    ws.synth(define({ rulesets: [2], ip: { description: 'web server' }, hardReboot: true }));
    const run = await ws.apply();
    expect(run.code).toBe(0);
    expect(run.output).toContain('Apply complete! Resources: 0 added, 3 changed, 0 destroyed.');
    expect(newWrites().sort()).toEqual(['firewall {"rulesets":[2]}', 'ip_settings {"description":"web server"}']);
  });

  test('a change of reboot_triggers reboots exactly once, in place', async () => {
    ws.synth(define({ rulesets: [2], ip: { description: 'web server' }, hardReboot: true, image: 'v2' }));
    const plan = await ws.plan();
    expect(plan.output).toMatch(/~ reboot_triggers\s+= \{/);
    expect(plan.output).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    const run = await ws.apply();
    expect(run.code).toBe(0);
    // Said at plan (in the stack's words: a TypeScript stack), then done: the reboot itself is a line of the log.
    expect(run.output).toContain('Warning: The apply reboots a server: its rebootTriggers changed');
    expect(run.output).toMatch(/The apply reboots vps_\S+ once \(reset, hardReboot\)\./);
    expect(newWrites()).toEqual(['action reset']);
    expect((await ws.apply()).output).toContain('No changes.');
    expect(newWrites()).toEqual([]);
  });

  test('partial failure: the fields written before a refusal are kept in state, and the next apply writes only the rest', async () => {
    const ip = { rdns: 'web3.example.com', description: 'web 3', protection: { layer4: Layer4Protection.PERMANENT, layer7: Layer7Protection.ONLY } };
    ws.synth(define({ rulesets: [2], ip, hardReboot: true, image: 'v2' }));
    sim.addFault({ endpoint: 'PATCH /servers/{serverId}/ips/{ip}', skip: 2, times: 1, effect: { type: 'error', status: 423, code: 'service_locked' } });
    const failed = await ws.apply();
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/ip settings ded_\S+ 203\.0\.113\.10: writing protection failed/);
    expect(failed.output).toMatch(/API: 423 service_locked \(request id [^)]+\)/);
    expect(failed.output).toContain('what to do: the service is suspended or locked');
    expect(newWrites()).toEqual(['ip_settings {"rdns":"web3.example.com"}', 'ip_settings {"description":"web 3"}']);
    const plan = await ws.plan();
    expect(plan.output).toMatch(/~ protection\s+= \{/);
    expect(plan.output).not.toMatch(/~ (rdns|description)\s+=/);
    expect((await ws.apply()).code).toBe(0);
    expect(newWrites()).toEqual(['ip_settings {"protection":{"layer4":"permanent","layer7":"only"}}']);
  });

  test('importExisting() imports the actual values and plans the in-place change, not a create', async () => {
    ws.synth(define({ rulesets: [2], ip: { rdns: 'web3.example.com', description: 'web 3', protection: { layer4: Layer4Protection.PERMANENT, layer7: Layer7Protection.ONLY } }, hardReboot: true, image: 'v2', adoptVds: true }));
    const plan = await ws.plan();
    expect(plan.output).toContain('Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.');
    expect((await ws.apply()).code).toBe(0);
    expect(newWrites()).toEqual(['firewall {"rulesets":[1]}']);
  });

  test('a field this token may not edit is refused at plan time, naming the attribute, before anything is written', async () => {
    const locked = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
    try {
      locked.synth((stack) => {
        const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl });
        new IpSettings(stack, 'ip', { api, serverId: IDS.dedicated, ip: IPS.locked, rdns: 'mine.example.com' }).importExisting();
      });
      expect((await locked.init()).code).toBe(0);
      const plan = await locked.plan();
      expect(plan.code).toBe(1);
      expect(plan.output).toContain(`ip settings ${IDS.dedicated} ${IPS.locked}: rdns is not editable for this address`);
      expect(plan.output).toMatch(/with hosting_ip_settings\.ip_resource_[0-9A-F]+,\n.*\n\s+\d+:\s+"rdns": "mine.example.com"/);
      expect(newWrites()).toEqual([]);
    } finally {
      locked.dispose();
    }
  });

  test('destroy retains the firewall and the power, and restores the IP settings observed before the first change', async () => {
    const before = sim.executed({ kind: 'action' }).length;
    // The plan says what each removal leaves in place, under one summary (the JSON stream shows each).
    const planned = await ws.terraform(['plan', '-destroy', '-input=false', '-no-color', '-json']);
    const named = planned.output.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { diagnostic?: { summary: string; detail: string } })
      .filter((m) => m.diagnostic?.summary === 'Removing this resource from Terraform leaves its settings on the server')
      .map((m) => m.diagnostic!.detail.replace(/^The apply leaves (.*)\.$/, '$1'));
    expect(named.sort()).toEqual([
      expect.stringMatching(/^the firewall of vps_\S+ \(enabled true, rule sets \[[\d, ]+\]\)$/),
      expect.stringMatching(/^the firewall of vps_\S+ \(enabled true, rule sets \[[\d, ]+\]\)$/),
      expect.stringMatching(/^vps_\S+, which stays running$/),
    ]);
    const run = await ws.destroy();
    expect(run.code).toBe(0);
    expect(run.output).toContain('Destroy complete! Resources: 4 destroyed.');
    // Folded by Terraform into one warning.
    expect(run.output.match(/Warning: Removing this resource from Terraform leaves its settings on the server/g)).toHaveLength(1);
    expect(run.output).toContain('(and 2 more similar warnings elsewhere)');
    expect(newWrites().sort()).toEqual([
      'ip_settings {"description":"primary"}',
      'ip_settings {"protection":{"layer4":"dynamic","layer7":"off"}}',
      'ip_settings {"rdns":"metal-1.example.com"}',
    ]);
    expect(sim.executed({ kind: 'action' })).toHaveLength(before);
    expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [2] });
  });

  test('the token appears nowhere: synth output, state, plan files, or a TRACE log of a whole run', async () => {
    const traced = await ws.terraform(['plan', '-input=false', '-no-color'], { env: { TF_LOG: 'TRACE' } });
    expect(traced.output).toMatch(/starting plugin: path=.*terraform-provider-hosting_v\d+\.\d+\.\d+\S*/);
    expect(traced.output).not.toContain(SENTINEL_TOKEN);
    expect(ws.allText()).not.toContain(SENTINEL_TOKEN);
  });
});

describeWithTerraform('the hosting provider end to end: firewall details and the CLI import', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  const writes = () => sim.executed().map((w) => `${w.serverId} ${w.detail}`);
  const define = (withImported: boolean) => (stack: TerraformStack) => {
    const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl });
    new ServerFirewall(stack, 'web', { api, serverId: IDS.vpsRunning, enabled: true });
    if (withImported) new ServerFirewall(stack, 'vds', { api, serverId: IDS.vdsRunning, rulesets: [1] });
  };

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
    ws.synth(define(false));
    expect((await ws.init()).code).toBe(0);
    expect((await ws.apply()).code).toBe(0);
    expect(writes()).toEqual([`${IDS.vpsRunning} {"enabled":true}`]);
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('what the construct does not set is read into state, never written', async () => {
    sim.drift(IDS.vpsRunning, { firewall: { rulesets: [3] } });
    const before = sim.executed().length;
    expect((await ws.plan()).code).toBe(0);
    expect((await ws.terraform(['apply', '-refresh-only', '-auto-approve', '-input=false', '-no-color'])).code).toBe(0);
    expect(sim.executed()).toHaveLength(before);
    const state = JSON.parse((await ws.terraform(['show', '-json'])).output);
    expect(state.values.root_module.resources[0].values).toMatchObject({ server_id: IDS.vpsRunning, enabled: true, rulesets: [3] });
  });

  test('terraform import of an existing firewall plans the in-place change, not a create; a malformed id is refused', async () => {
    ws.synth(define(true));
    const address = `hosting_server_firewall.${Object.keys(JSON.parse(readFileSync(join(ws.stackDir, 'cdk.tf.json'), 'utf8')).resource.hosting_server_firewall).find((k) => k.startsWith('vds'))}`;
    const wrong = await ws.terraform(['import', '-input=false', '-no-color', address, IDS.dedicated]);
    expect(wrong.code).toBe(1);
    expect(wrong.output).toContain(`cannot import as hosting_server_firewall: "${IDS.dedicated}" is a dedicated server id; the import id is a VPS id, vps_<name>_<number> (vps_web_1)`);
    const typo = await ws.terraform(['import', '-input=false', '-no-color', address, 'vps_web2']);
    expect(typo.output).toContain('"vps_web2" is not a server id; the import id is a VPS id, vps_<name>_<number> (vps_web_1); did you mean "vps_web_2"?');
    const missing = await ws.terraform(['import', '-input=false', '-no-color', address, 'vps_web_9']);
    expect(missing.code).toBe(1);
    expect(missing.output).toMatch(/cannot import "vps_web_9" as hosting_server_firewall: server "vps_web_9" does not exist on account \d+ \(token "[^"]+"\) at https?:\/\/\S+\/api\/v1/);
    expect(missing.output).toMatch(/vps_web_1 \("web-1"\)/);
    expect(missing.output).not.toContain('Cannot import non-existent remote object');
    const imported = await ws.terraform(['import', '-input=false', '-no-color', address, IDS.vdsRunning]);
    expect(imported.code).toBe(0);
    const plan = await ws.plan();
    expect(plan.output).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    expect(plan.output).toMatch(/~ rulesets\s+= \[/);
  });
});

describe('the provider process refuses to serve outside Terraform\'s mutual TLS', () => {
  const BUNDLE = join(__dirname, '..', '..', 'assets', 'provider', 'provider.js');
  const start = (env: Record<string, string>) => spawnSync(process.execPath, [BUNDLE], { encoding: 'utf8', env: { PATH: process.env.PATH!, ...env }, timeout: 10_000 });

  test('without go-plugin\'s magic cookie: exit 1, one line on stderr, nothing on stdout', () => {
    const res = start({});
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('This is a Terraform provider plugin: Terraform starts it; it is not meant to be run by hand.\n');
  });

  test('without Terraform\'s client certificate (plain TLS or none): exit 1 before listening', () => {
    const res = start({ TF_PLUGIN_MAGIC_COOKIE: 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2' });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('PLUGIN_CLIENT_CERT is not set: this provider only serves Terraform over mutual TLS.');
  });
});

describe('the provider process ends with Terraform', () => {
  const BUNDLE = join(__dirname, '..', '..', 'assets', 'provider', 'provider.js');
  /** Alive, and not a zombie no one has reaped yet. */
  const isRunning = (pid: number) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] !== 'Z';
    } catch {
      return false;
    }
  };
  // The shell's pid is Linux's: the Windows runner runs the rest of this file.
  const onLinux = process.platform === 'linux' ? test : test.skip;

  onLinux('Terraform killed without a Shutdown: the provider exits within seconds rather than linger', async () => {
    const env = { PATH: process.env.PATH!, TF_PLUGIN_MAGIC_COOKIE: 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2', PLUGIN_CLIENT_CERT: createServerCertificate().certPem };
    // A shell stands in for Terraform: it starts the provider, prints its pid, and is killed once the handshake line is out.
    const terraform = spawn('sh', ['-c', `"${process.execPath}" "${BUNDLE}" & echo "pid $!"; wait`], { env });
    let output = '';
    await new Promise<void>((resolve) => terraform.stdout.on('data', (d: Buffer) => {
      output += d;
      if (output.includes('|grpc|')) resolve();
    }));
    const pid = Number(/^pid (\d+)$/m.exec(output)![1]);
    terraform.kill('SIGKILL');
    for (let i = 0; i < 50 && isRunning(pid); i++) await new Promise((done) => setTimeout(done, 100));
    expect(isRunning(pid)).toBe(false);
  });
});
