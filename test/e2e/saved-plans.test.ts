import { writeFileSync } from 'node:fs';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { docBlocks } from '../helpers/doc-blocks';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/**
 * A GitOps pipeline: `terraform plan -out=tfplan` on the pull request, `terraform apply tfplan`
 * later, after someone changed the account by hand. The apply makes every planned value true
 * against a fresh read and names what moved since the plan, however soon or late it comes; the
 * next plan is clean. Plain HCL.
 */
describeWithTerraform('a saved plan applied after the account moved makes the planned values true', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
  let mainTf: string;
  let header: string;

  const configure = (providerSettings: string, hcl: string) =>
    writeFileSync(mainTf, `${header.replace(/provider "hosting" \{\n/, `provider "hosting" {\n${providerSettings}`)}\n${hcl}`);
  /** The endpoint of each request the simulator answered since the `before`-th (unmatched paths left out). */
  const endpointsSince = (before: number) => sim.requests.slice(before).flatMap((r) => (r.endpoint === undefined ? [] : [r.endpoint]));
  const planToFile = () => ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan']);
  const applyFile = () => ws.terraform(['apply', '-input=false', '-no-color', 'tfplan']);
  const firewall = (rulesets: string) => `resource "hosting_server_firewall" "fw" {\n  server_id = "${IDS.vpsRunning}"\n  enabled   = true\n  rulesets  = ${rulesets}\n}\n`;
  const address = (rdns: string) => `resource "hosting_ip_settings" "ip" {\n  server_id   = "${IDS.dedicated}"\n  ip          = "${IPS.secondary}"\n  rdns        = "${rdns}"\n  description = "reviewed"\n}\n`;

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace(env);
    ({ mainTf, header } = await ws.initHclFor(env, sim.baseUrl));
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('firewall: the rule sets change as reviewed, and what someone turned off meanwhile is turned on again, with a warning', async () => {
    configure('', firewall('[1]'));
    expect((await ws.apply()).code).toBe(0);
    configure('', firewall('[1, 2]'));
    expect((await planToFile()).code).toBe(0);
    sim.drift(IDS.vpsRunning, { firewall: { enabled: false, rulesets: [3] } });
    const run = await applyFile();
    expect(run.code).toBe(0);
    expect(run.output).toContain(`firewall ${IDS.vpsRunning}: changed since the plan: enabled true -> false (set back to true), rulesets [1] -> [3] (set to [1, 2] as planned)`);
    expect(run.output).not.toMatch(/report the request id|the API accepted the change/);
    expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
    // One write: both members in the one PUT.
    expect(sim.executed({ serverId: IDS.vpsRunning, kind: 'firewall' }).at(-1)!.detail).toBe(JSON.stringify({ enabled: true, rulesets: [1, 2] }));
    expect((await ws.plan()).code).toBe(0);
  });

  test('IP settings: rdns changes as reviewed, and the description someone changed meanwhile is set back, with a warning', async () => {
    configure('', address('a.example.com'));
    expect((await ws.apply()).code).toBe(0);
    configure('', address('b.example.com'));
    expect((await planToFile()).code).toBe(0);
    sim.drift(IDS.dedicated, { ip: { address: IPS.secondary, description: 'changed by hand' } });
    const run = await applyFile();
    expect(run.code).toBe(0);
    expect(run.output).toContain('changed since the plan: description "reviewed" -> "changed by hand" (set back to "reviewed")');
    const settings = sim.state.server(IDS.dedicated).ipSettings.get(IPS.secondary)!;
    expect([settings.rdns, settings.description]).toEqual(['b.example.com', 'reviewed']);
    expect((await ws.plan()).code).toBe(0);
  });

  // Issue 54 §3: an emergency change made by hand between the plan and a later job's apply.
  test('changed_since_plan = "fail": a saved plan applied by another job leaves a change made since the plan in place, writes nothing there and fails in the same words; a resource can override it', async () => {
    const failing = '  changed_since_plan = "fail"\n';
    configure(failing, firewall('[1]'));
    expect((await ws.apply()).code).toBe(0);
    configure(failing, firewall('[1, 2]'));
    expect((await planToFile()).code).toBe(0);
    sim.drift(IDS.vpsRunning, { firewall: { enabled: true, rulesets: [3] } });
    const writes = sim.executed({ serverId: IDS.vpsRunning, kind: 'firewall' }).length;
    // The apply as the GitOps guide's jq line runs it: the refusal, with the resource's address.
    const guide = docBlocks().find((b) => b.file.endsWith('gitops-pipelines.md') && b.code.includes('changed since the plan'))!;
    const refused = await ws.shell(guide.code.trim().split(/\n(?=terraform )/)[1]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout.trim()).toBe(`hosting_server_firewall.fw: firewall ${IDS.vpsRunning}: changed since the plan: rulesets [1] -> [3]; left as it is, and nothing was written (changed_since_plan = "fail")`);
    expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [3] });
    expect(sim.executed({ serverId: IDS.vpsRunning, kind: 'firewall' })).toHaveLength(writes);
    // The resource says otherwise: its own setting wins, and the apply (of another job, later) makes the plan true with the usual warning.
    configure(failing, firewall('[1, 2]').replace('  rulesets', '  changed_since_plan = "overwrite"\n  rulesets'));
    expect((await planToFile()).code).toBe(0);
    sim.drift(IDS.vpsRunning, { firewall: { enabled: true, rulesets: [4] } });
    const overwritten = await applyFile();
    expect(overwritten.code).toBe(0);
    expect(overwritten.output).toContain(`firewall ${IDS.vpsRunning}: changed since the plan: rulesets [3] -> [4] (set to [1, 2] as planned)`);
    expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
    configure('', firewall('[1]'));
    expect((await ws.apply()).code).toBe(0);
  });

  test('changed_since_plan must be "overwrite" or "fail": a typo is refused at plan with the one likely meant', async () => {
    configure('  changed_since_plan = "fial"\n', firewall('[1]'));
    const run = await ws.terraform(['plan', '-input=false', '-no-color']);
    expect(run.code).toBe(1);
    expect(run.output).toContain('changed_since_plan in the provider "hosting" block must be "overwrite" or "fail", not "fial": did you mean "fail"?');
  });

  // Terraform tells the provider nothing of whether it applies a saved plan: the words serve both.
  test('a failed apply says to run the apply again, and to plan again first after a saved plan, in a saved plan\'s apply and a plain one alike', async () => {
    const unavailable = () => sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', times: 1, effect: { type: 'error', status: 503, code: 'temporarily_unavailable', retryAfterSeconds: 3600 } });
    configure('', firewall('[1]'));
    expect((await ws.apply()).code).toBe(0);
    configure('', firewall('[2]'));
    expect((await planToFile()).code).toBe(0);
    unavailable();
    const saved = await applyFile();
    expect(saved.code).toBe(1);
    const words = 'run the apply again shortly (after a saved plan: plan again, then apply the new plan)';
    expect(saved.output.replace(/\s+/g, ' ')).toContain(words);
    unavailable();
    const own = await ws.apply();
    expect(own.code).toBe(1);
    expect(own.output.replace(/\s+/g, ' ')).toContain(words);
    sim.clearFaults();
    expect((await ws.apply()).code).toBe(0);
  });

  test('a saved plan applied seconds later reads again, names what moved, and writes everything that differs in one PUT', async () => {
    configure('', firewall('[1]'));
    expect((await ws.apply()).code).toBe(0);
    configure('', firewall('[1, 2]'));
    expect((await planToFile()).code).toBe(0);
    sim.drift(IDS.vpsRunning, { firewall: { enabled: false } });
    const before = sim.requests.length;
    const run = await applyFile();
    expect(run.code).toBe(0);
    expect(run.output).toContain(`firewall ${IDS.vpsRunning}: changed since the plan: enabled true -> false (set back to true)`);
    expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
    // (The apply's plan reads what every resource shares once: the token, the server list, the rule sets.)
    expect(endpointsSince(before).filter((e) => e.includes('/firewall') && !e.includes('rulesets'))).toEqual(['GET', 'PUT'].map((m) => `${m} /servers/{serverId}/firewall`));
    expect((await ws.plan()).code).toBe(0);
  });

  test('a planned stop the server already made by hand applies with no action', async () => {
    configure('', `resource "hosting_power_state" "p" {\n  server_id = "${IDS.vdsRunning}"\n  state     = "running"\n}\n`);
    expect((await ws.apply()).code).toBe(0);
    configure('', `resource "hosting_power_state" "p" {\n  server_id = "${IDS.vdsRunning}"\n  state     = "stopped"\n}\n`);
    expect((await planToFile()).code).toBe(0);
    sim.drift(IDS.vdsRunning, { power: 'stopped' });
    const run = await applyFile();
    expect(run.code).toBe(0);
    expect(sim.executed({ serverId: IDS.vdsRunning, kind: 'action' })).toEqual([]);
  });

  test('a create in one terraform apply: the plan\'s read, the apply\'s plan\'s read and the write; each walk says the takeover, folded by kind', async () => {
    const creates = [IDS.vpsStopped, IDS.vdsRunning].map((id, i) => `resource "hosting_server_firewall" "new${i}" {\n  server_id = "${id}"\n  rulesets  = [1, 3]\n}\n`).join('')
      + `resource "hosting_ip_settings" "new" {\n  server_id = "${IDS.dedicated}"\n  ip        = "${IPS.primary}"\n  rdns      = "created.example.com"\n}\n`;
    configure('', creates);
    const before = sim.requests.length;
    const run = await ws.apply();
    expect(run.code).toBe(0);
    const firewallRequests = endpointsSince(before).filter((e) => /^(GET|PUT) \/servers\/\{serverId\}\/firewall$/.test(e));
    // The plan walk's read (its warning), the apply walk's plan of the change (the apply writes from its read), the write.
    expect(firewallRequests.sort()).toEqual(['GET', 'GET', 'GET', 'GET', 'PUT', 'PUT'].map((m) => `${m} /servers/{serverId}/firewall`));
    const addressRequests = endpointsSince(before).filter((e) => e.endsWith('/ips/{ip}'));
    expect(addressRequests).toEqual(['GET /servers/{serverId}/ips/{ip}', 'GET /servers/{serverId}/ips/{ip}', 'PATCH /servers/{serverId}/ips/{ip}']);
    // One summary per kind: Terraform folds both walks' takeovers of a kind into one warning.
    expect(run.output.match(/Warning: Creating this resource changes a firewall that exists already/g)).toHaveLength(1);
    expect(run.output).toContain('(and 3 more similar warnings elsewhere)');
    expect(run.output.match(/Warning: Creating this resource changes IP settings that exist already/g)).toHaveLength(1);
    expect(run.output).toContain('(and one more similar warning elsewhere)');
    expect(sim.state.server(IDS.vpsStopped).firewall!.rulesets).toEqual([1, 3]);
    expect((await ws.plan()).code).toBe(0);
    // Undone for the next test: retained on removal, so set back by hand.
    configure('', '');
    expect((await ws.apply()).code).toBe(0);
  });

  test('a create\'s saved plan applied by another terraform reads again and says what it overwrites then', async () => {
    configure('', `resource "hosting_server_firewall" "late" {\n  server_id = "${IDS.vpsStopped}"\n  enabled   = true\n}\n`);
    sim.drift(IDS.vpsStopped, { firewall: { enabled: false, rulesets: [2] } });
    const plan = await planToFile();
    expect(plan.output).toContain(`The apply changes the firewall of ${IDS.vpsStopped}: enabled false -> true`);
    sim.drift(IDS.vpsStopped, { firewall: { enabled: true, rulesets: [2] } });
    sim.drift(IDS.vpsStopped, { firewall: { enabled: false } });
    const before = sim.requests.length;
    const run = await applyFile();
    expect(run.code).toBe(0);
    expect(run.output).toContain(`The apply changes the firewall of ${IDS.vpsStopped}: enabled false -> true`);
    expect(sim.requests.slice(before).filter((r) => r.endpoint === 'GET /servers/{serverId}/firewall')).toHaveLength(1);
    expect(sim.state.server(IDS.vpsStopped).firewall!.enabled).toBe(true);
  });

  test('plan_read_max_age_seconds is deprecated: a warning at its line, and no effect', async () => {
    configure('  plan_read_max_age_seconds = 600\n', firewall('[1, 2]'));
    const run = await ws.plan();
    expect(run.code).not.toBe(1);
    expect(run.output).toContain('Warning: plan_read_max_age_seconds is deprecated, and has no effect');
  });
});
