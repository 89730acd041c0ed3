import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TerraformStack } from 'cdktf';
import { Bridge, HostingApi, ServerFirewall } from '../../src';
import { SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/**
 * Bridge.PROVIDER with the real terraform: the provider ships inside the synthesized stack and is
 * installed from it offline, with mutual TLS (nothing sets TF_DISABLE_PLUGIN_TLS). Terraform reads
 * the firewall, so drift shows in `plan` and `apply` repairs it in place.
 */
describeWithTerraform('the hosting provider (Bridge.PROVIDER) end to end', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  const writes = () => sim.executed().map((w) => `${w.serverId} ${w.detail}`);
  const define = (withImported: boolean) => (stack: TerraformStack) => {
    const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl, bridge: Bridge.PROVIDER });
    new ServerFirewall(stack, 'web', { api, serverId: IDS.vpsRunning, enabled: true });
    if (withImported) new ServerFirewall(stack, 'vds', { api, serverId: IDS.vdsRunning, rulesets: [1] });
  };

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
    ws.synth(define(false));
    const init = await ws.init();
    expect(init.code).toBe(0);
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('create writes only what differs; the next plan is empty', async () => {
    const run = await ws.apply();
    expect(run.code).toBe(0);
    expect(run.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(writes()).toEqual([`${IDS.vpsRunning} {"enabled":true}`]);
    expect((await ws.plan()).code).toBe(0);
  });

  test('drift shows in plan as an in-place change of the attribute, and apply repairs it with one write', async () => {
    sim.drift(IDS.vpsRunning, { firewall: { enabled: false } });
    const plan = await ws.plan();
    expect(plan.code).toBe(2);
    expect(plan.output).toMatch(/~ enabled\s+= false -> true/);
    expect(plan.output).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    const run = await ws.apply();
    expect(run.output).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
    expect(writes().slice(1)).toEqual([`${IDS.vpsRunning} {"enabled":true}`]);
    expect((await ws.plan()).code).toBe(0);
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

  test('terraform import of an existing firewall plans the in-place change, not a create', async () => {
    ws.synth(define(true));
    const address = `hosting_server_firewall.${Object.keys(JSON.parse(readFileSync(join(ws.stackDir, 'cdk.tf.json'), 'utf8')).resource.hosting_server_firewall).find((k) => k.startsWith('vds'))}`;
    const imported = await ws.terraform(['import', '-input=false', '-no-color', address, IDS.vdsRunning]);
    expect(imported.code).toBe(0);
    const plan = await ws.plan();
    expect(plan.output).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    expect(plan.output).toMatch(/~ rulesets\s+= \[/);
  });

  test('destroy retains the servers\' settings and makes no write', async () => {
    const before = sim.executed().length;
    const run = await ws.destroy();
    expect(run.code).toBe(0);
    expect(run.output).toContain('Destroy complete! Resources: 2 destroyed.');
    expect(sim.executed()).toHaveLength(before);
    expect(sim.state.server(IDS.vpsRunning).firewall?.enabled).toBe(true);
  });

  test('the token appears nowhere in the synth output or the state', () => {
    expect(ws.allText()).not.toContain(SENTINEL_TOKEN);
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
