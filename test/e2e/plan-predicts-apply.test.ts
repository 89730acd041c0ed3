import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TAKEOVER_SILENCED } from '../../src/provider/resources/effects';
import { defaultSeed, SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, SEED_TOKEN_NAMES, type RunningSimulator } from '../../src/simulator';
import { docBlocks } from '../helpers/doc-blocks';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/**
 * Plan green means apply green: every refusal a read can predict fails `terraform plan`, naming its
 * cause, before anything is written, and the reads stay bounded (one GET /connect, one server list,
 * one list of rule sets per run, shared by every resource). Plain HCL, one workspace.
 */
describeWithTerraform('plan predicts apply: refusals a read can know fail the plan', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
  let mainTf: string;
  let header: string;

  /** Plans `hcl` (with the token named by `token`, the full one by default) and returns the run. */
  const planWith = async (hcl: string, token?: string) => {
    writeFileSync(mainTf, `${header}\n${hcl}`);
    const before = sim.executed().length;
    const run = await ws.terraform(['plan', '-input=false', '-no-color', '-detailed-exitcode'], token ? { env: { HOSTING_API_TOKEN: sim.tokens[token] } } : {});
    expect(sim.executed()).toHaveLength(before);
    return run;
  };

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace(env);
    ({ mainTf, header } = await ws.initHclFor(env, sim.baseUrl));
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  // Every row has four members: jest passes a shorter row's missing last argument as a done callback.
  test.each<[string, string, RegExp, string | undefined]>([
    ['a write to a shared server', `resource "hosting_server_firewall" "x" {\n  server_id = "${IDS.vpsShared}"\n  enabled   = false\n}`, /shared with this account and is read-only for it, so changing its firewall would be refused/, undefined],
    ['a rule set id that does not exist', `resource "hosting_server_firewall" "x" {\n  server_id = "${IDS.vpsRunning}"\n  rulesets  = [1, 99]\n}`, /rule set 99 does not exist on account \d+ \(token "[^"]+"\) at http:\/\/127\.0\.0\.1:\d+\/api\/v1\n\n(.|\n)*the account's rule sets are 1 \("web"\)/, undefined],
    ['an address that is not the server\'s', `resource "hosting_ip_settings" "x" {\n  server_id = "${IDS.dedicated}"\n  ip        = "203.0.113.99"\n  rdns      = "a.example.com"\n}`, /203\.0\.113\.99 is not an address of server ded_/, undefined],
    ['a field not editable, on create', `resource "hosting_ip_settings" "x" {\n  server_id = "${IDS.dedicated}"\n  ip        = "${IPS.locked}"\n  rdns      = "mine.example.com"\n}`, /rdns is not editable for this address/, undefined],
    ['a start of a suspended server', `resource "hosting_power_state" "x" {\n  server_id = "${IDS.vpsSuspended}"\n  state     = "running"\n}`, /the server is suspended, and power actions are accepted only while it is active, so start would be refused/, undefined],
    ['a stop without servers:control', `resource "hosting_power_state" "x" {\n  server_id = "${IDS.vpsRunning}"\n  state     = "stopped"\n}`, /lacks servers:control, which shutdown needs/, SEED_TOKEN_NAMES.powerWithoutControl],
    ['a firewall change without network:write', `resource "hosting_server_firewall" "x" {\n  server_id = "${IDS.vpsRunning}"\n  enabled   = true\n}`, /lacks network:write, which changing its firewall needs/, SEED_TOKEN_NAMES.readOnly],
  ])('%s fails the plan, naming the cause; nothing is written', async (_name, hcl, message, token) => {
    const run = await planWith(hcl, token);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(message);
    // Said where an apply stopped; at plan nothing is ever changed.
    expect(run.output).not.toContain('nothing was changed');
  });

  test('several mistakes in one configuration are all refused by one plan: a mistyped server id and a mistyped rule set name', async () => {
    const run = await planWith('resource "hosting_server_firewall" "x" {\n  server_id     = "vps_web_9"\n  ruleset_names = ["webb"]\n}');
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/server "vps_web_9" does not exist on account \d+ \(token "[^"]+"\) at http:\/\/127\.0\.0\.1:\d+\/api\/v1\n/);
    expect(run.output).toContain('rule set name "webb" does not exist (did you mean "web"?)');
  });

  test('a message_language the provider does not speak fails the plan once, in HCL, with the one likely meant; before any request', async () => {
    const before = sim.requests.length;
    writeFileSync(mainTf, `${header.replace('provider "hosting" {', 'provider "hosting" {\n  message_language = "pyhton"')}\nresource "hosting_server_firewall" "x" {\n  server_id = "${IDS.vpsRunning}"\n}`);
    const run = await ws.terraform(['plan', '-input=false', '-no-color']);
    expect(run.code).toBe(1);
    expect(run.output).toContain('Error: message_language in the provider "hosting" block must be "hcl", "typescript" or "python", not "pyhton": did you mean "python"?');
    expect(run.output.match(/^Error: /gm)).toHaveLength(1);
    expect(sim.requests.length).toBe(before);
  });

  test('what needs no write plans green on the same servers, and the reads stay bounded per run', async () => {
    const before = sim.requests.length;
    const run = await planWith([
      ...[IDS.vpsRunning, IDS.vpsStopped, IDS.vdsRunning].map((id, i) => `resource "hosting_server_firewall" "f${i}" {\n  server_id = "${id}"\n  rulesets  = [${i + 1}]\n}`),
      ...[IPS.primary, IPS.secondary].map((ip, i) => `resource "hosting_ip_settings" "i${i}" {\n  server_id   = "${IDS.dedicated}"\n  ip          = "${ip}"\n  description = "d${i}"\n}`),
      ...[IDS.vpsRunning, IDS.vpsStopped].map((id, i) => `resource "hosting_power_state" "p${i}" {\n  server_id = "${id}"\n  state     = "running"\n}`),
      // Read-only servers are fine to hold when nothing is written to them.
      `resource "hosting_power_state" "shared" {\n  server_id = "${IDS.vpsShared}"\n  state     = "running"\n}`,
    ].join('\n'));
    expect(run.code).toBe(2);
    const counts = (endpoint: string) => sim.requests.slice(before).filter((r) => r.endpoint === endpoint).length;
    expect([counts('GET /connect'), counts('GET /servers'), counts('GET /firewall/rulesets')]).toEqual([1, 1, 1]);
    // One fresh read of a server whose start the plan shows (the actions on offer), one per address
    // created, one per firewall created (what each create takes over).
    expect([counts('GET /servers/{serverId}'), counts('GET /servers/{serverId}/ips/{ip}'), counts('GET /servers/{serverId}/firewall')]).toEqual([1, 2, 3]);
  });

  const threeFirewalls = () => [IDS.vpsRunning, IDS.vpsStopped, IDS.vdsRunning]
    .map((id, i) => `resource "hosting_server_firewall" "f${i}" {\n  server_id = "${id}"\n  enabled   = true\n  rulesets  = [${i + 1}]\n}`).join('\n');

  test('a refused token on several resources is one error, ConfigureProvider\'s, after one request', async () => {
    writeFileSync(mainTf, `${header}\n${threeFirewalls()}`);
    const before = sim.requests.length;
    const run = await ws.terraform(['plan', '-input=false', '-no-color'], { env: { HOSTING_API_TOKEN: 'hsim_not_a_token_of_this_account' } });
    expect(run.code).toBe(1);
    const errors = run.output.split('\n').filter((line) => line.startsWith('Error: '));
    expect(errors).toEqual([expect.stringMatching(/^Error: the token in HOSTING_API_TOKEN was refused by http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(401 unauthorized, request id [\w-]+\): /)]);
    expect(run.output).not.toContain('hsim_not_a_token_of_this_account');
    expect(sim.requests.slice(before).map((r) => r.path)).toEqual(['/connect']);
  });

  test('a token lacking a scope is one error per provider configuration, the other writes it stops one folded warning, from the one GET /connect of the process', async () => {
    writeFileSync(mainTf, `${header}\n${threeFirewalls()}`);
    const before = sim.requests.length;
    const run = await ws.terraform(['plan', '-input=false', '-no-color'], { env: { HOSTING_API_TOKEN: sim.tokens[SEED_TOKEN_NAMES.readOnly] } });
    expect(run.code).toBe(1);
    const errors = run.output.split('\n').filter((line) => line.startsWith('Error: '));
    expect(errors).toEqual([expect.stringMatching(/^Error: firewall vps_\w+_\d: token "read-only" lacks network:write, which changing its firewall needs \(it has servers:read, network:read\)$/)]);
    expect(run.output.match(/Warning: The apply needs a token with network:write/g)).toHaveLength(1);
    expect(run.output).toContain('(and one more similar warning elsewhere)');
    expect(run.output.replace(/\s+/g, ' ')).toContain('the error above, of this token\'s scopes, fails this plan');
    expect(sim.requests.slice(before).filter((r) => r.path === '/connect')).toHaveLength(1);
  });

  test('HOSTING_API_READ_ONLY_PLAN=on: the plan still says what each create takes over, beside the scope its apply needs', async () => {
    writeFileSync(mainTf, `${header}\n${[IDS.vpsRunning, IDS.vpsStopped].map((id, i) => `resource "hosting_server_firewall" "t${i}" {\n  server_id = "${id}"\n  rulesets  = [${i + 3}]\n}`).join('\n')}`);
    const readOnly = { HOSTING_API_TOKEN: sim.tokens[SEED_TOKEN_NAMES.readOnly], HOSTING_API_READ_ONLY_PLAN: 'on' };
    const run = await ws.terraform(['plan', '-input=false', '-no-color'], { env: readOnly });
    expect(run.code).toBe(0);
    const warnings = run.output.split('\n').filter((line) => line.startsWith('Warning: '));
    expect(warnings.sort()).toEqual(['Warning: Creating this resource changes a firewall that exists already', 'Warning: The apply needs a token with network:write']);
    expect(run.output.match(/and one more similar warning elsewhere/g)).toHaveLength(2);
    writeFileSync(mainTf, header);
  });

  // Issue 59 §1: least privilege in a pipeline, as the GitOps guide writes it.
  test('HOSTING_API_READ_ONLY_PLAN=on: a plan with a read-only token warns of the scope its apply needs, once; the apply job, with the write token, applies the saved plan', async () => {
    writeFileSync(mainTf, `${header}\n${[IDS.vpsRunning, IDS.vpsStopped].map((id, i) => `resource "hosting_server_firewall" "f${i}" {\n  server_id       = "${id}"\n  rulesets        = [${i + 1}]\n  expect_takeover = true\n}`).join('\n')}`);
    const guide = docBlocks().find((b) => b.file.endsWith('gitops-pipelines.md') && b.code.includes('HOSTING_API_READ_ONLY_PLAN=on'))!;
    const [planJob, applyJob] = guide.code.trim().split('\n').filter((line) => !line.startsWith('#'));
    const tokens = `READ_ONLY_TOKEN='${sim.tokens[SEED_TOKEN_NAMES.readOnly]}' WRITE_TOKEN='${SENTINEL_TOKEN}'`;
    const plan = await ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan'], { env: { HOSTING_API_TOKEN: sim.tokens[SEED_TOKEN_NAMES.readOnly] } });
    expect(plan.output).toMatch(/lacks network:write, which changing its firewall needs/);
    const guided = await ws.shell(`${tokens}; ${planJob} -no-color`);
    expect(guided.code).toBe(0);
    const warnings = guided.stdout.split('\n').filter((line) => line.startsWith('Warning: '));
    expect(warnings).toEqual(['Warning: The apply needs a token with network:write']);
    expect(guided.stdout.replace(/\s+/g, ' ')).toContain('HOSTING_API_READ_ONLY_PLAN is on: this plan\'s token may only read');
    const applied = await ws.shell(`${tokens}; ${applyJob} -no-color`);
    expect(applied.code).toBe(0);
    expect([sim.state.server(IDS.vpsRunning).firewall.rulesets, sim.state.server(IDS.vpsStopped).firewall.rulesets]).toEqual([[1], [2]]);
    // A value the variable does not take is refused, its value shown only when it is a short word.
    const typo = await ws.terraform(['plan', '-input=false', '-no-color'], { env: { HOSTING_API_READ_ONLY_PLAN: 'yes' } });
    expect(typo.output).toContain('Error: HOSTING_API_READ_ONLY_PLAN is "yes": use "on"');
    writeFileSync(mainTf, header);
    expect((await ws.apply()).code).toBe(0);
  });

  test('a destroy whose restore fails: the plan said what the removals leave, and the state keeps what was not removed', async () => {
    writeFileSync(mainTf, `${header}
resource "hosting_server_firewall" "restored" {
  server_id       = "${IDS.vpsRunning}"
  enabled         = false
  on_destroy      = "restore"
  expect_takeover = true
  # Destroyed first: the IP settings' removal waits for it, and never comes.
  depends_on = [hosting_ip_settings.kept]
}
resource "hosting_ip_settings" "kept" {
  server_id       = "${IDS.dedicated}"
  ip              = "${IPS.secondary}"
  description     = "kept"
  expect_takeover = true
}
resource "hosting_power_state" "kept" {
  server_id = "${IDS.vpsRunning}"
  state     = "running"
}
`);
    // What the account held, put back at the end for the tests after this one.
    const firewallBefore = { ...sim.state.server(IDS.vpsRunning).firewall };
    const descriptionBefore = sim.state.server(IDS.dedicated).ipSettings.get(IPS.secondary)!.description;
    sim.drift(IDS.vpsRunning, { firewall: { enabled: true, rulesets: [2] } });
    expect((await ws.apply()).code).toBe(0);
    sim.addFault({ endpoint: 'PUT /servers/{serverId}/firewall', effect: { type: 'error', status: 422, code: 'validation_failed' } });
    const run = await ws.destroy();
    sim.clearFaults();
    expect(run.code).toBe(1);
    // The plan said what the two removals leave, under one summary; the state keeps what the failure stopped.
    expect(run.output).toContain('Warning: Removing this resource from Terraform leaves its settings on the server');
    expect(run.output).toContain('(and one more similar warning elsewhere)');
    const state = (await ws.terraform(['state', 'list'])).output.trim().split('\n').filter(Boolean);
    expect(state).toEqual(['hosting_ip_settings.kept', 'hosting_server_firewall.restored']);
    expect((await ws.destroy()).code).toBe(0);
    writeFileSync(mainTf, header);
    sim.drift(IDS.vpsRunning, { firewall: firewallBefore });
    sim.drift(IDS.dedicated, { ip: { address: IPS.secondary, description: descriptionBefore } });
  });

  test('a settings write to a server that is not active is warned of at plan, naming its status (the contract is silent on it)', async () => {
    const run = await planWith(`resource "hosting_server_firewall" "x" {\n  server_id       = "${IDS.vpsSuspended}"\n  enabled         = true\n  expect_takeover = true\n}`);
    expect(run.code).toBe(2);
    expect(run.output).toContain(`Warning: firewall ${IDS.vpsSuspended}: the server is suspended`);
    expect(run.output.replace(/\s+/g, ' ')).toContain('does not say whether a firewall change is accepted while a server is suspended: the apply will try, and report the API\'s answer.');
  });

  test('an API nothing answers at is one error for the run, naming its address', async () => {
    writeFileSync(mainTf, `${header.replace(sim.baseUrl, 'http://127.0.0.1:9/api/v1')}\n${[IDS.vpsRunning, IDS.vpsStopped, IDS.vdsRunning]
      .map((id, i) => `resource "hosting_server_firewall" "f${i}" {\n  server_id = "${id}"\n  enabled   = true\n}`).join('\n')}`);
    const run = await ws.terraform(['plan', '-input=false', '-no-color']);
    expect(run.code).toBe(1);
    const errors = run.output.split('\n').filter((line) => line.startsWith('Error: '));
    expect(errors).toEqual([expect.stringMatching(/^Error: the API at http:\/\/127\.0\.0\.1:9\/api\/v1 could not be reached: /)]);
  }, 120_000);

  test('a create that takes over settings that differ says at plan what it changes, each current value and what it becomes', async () => {
    const run = await planWith([
      `resource "hosting_server_firewall" "fw" {\n  server_id = "${IDS.vpsStopped}"\n  rulesets  = [1, 2]\n}`,
      `resource "hosting_power_state" "power" {\n  server_id = "${IDS.vpsStopped}"\n  state     = "running"\n}`,
      `resource "hosting_ip_settings" "ip" {\n  server_id   = "${IDS.dedicated}"\n  ip          = "${IPS.primary}"\n  rdns        = "web.example.com"\n  description = "primary"\n}`,
      // Already as configured: nothing to say.
      `resource "hosting_server_firewall" "same" {\n  server_id = "${IDS.vpsRunning}"\n  enabled   = false\n}`,
      // Reviewed: the team said it expects the takeover.
      `resource "hosting_server_firewall" "reviewed" {\n  server_id       = "${IDS.vdsRunning}"\n  rulesets        = [1]\n  expect_takeover = true\n}`,
    ].join('\n'));
    expect(run.code).toBe(2);
    const said = run.output.replace(/\s+/g, ' ');
    expect([
      `The apply changes the firewall of ${IDS.vpsStopped}: rulesets [2] -> [1, 2].`,
      `The apply changes the settings of ${IPS.primary} on ${IDS.dedicated}: rdns "metal-1.example.com" -> "web.example.com".`,
      `The apply changes the power of ${IDS.vpsStopped}: state "stopped" -> "running": the apply starts it.`,
    ].filter((change) => !said.includes(change))).toEqual([]);
    expect(run.output).toContain('with hosting_server_firewall.fw,');
    expect(run.output).not.toContain(`the firewall of ${IDS.vpsRunning}`);
    expect(run.output).not.toContain(`the firewall of ${IDS.vdsRunning}`);
    // Each says it once, in two short lines: how to silence it, and where the docs say why.
    const silenced = new RegExp(TAKEOVER_SILENCED.replace(/[().]/g, '\\$&').replace(/ /g, '\\s+'), 'g');
    expect(run.output.match(silenced)).toHaveLength(3);
    // In HCL's words alone: a plain HCL stack hears no other language.
    expect(run.output).not.toMatch(/TypeScript|Python|expectTakeover|HostingApi/);
  });

  test('the GitOps guide\'s jq lines render what an import takes over (the plan file) and what a create takes over (the plan\'s stream)', async () => {
    const block = docBlocks().find((b) => b.file.endsWith('gitops-pipelines.md') && b.code.includes('select(.change.importing)'))!;
    writeFileSync(mainTf, `${header}
import {
  to = hosting_server_firewall.imported
  id = "${IDS.vpsRunning}"
}
resource "hosting_server_firewall" "imported" {
  server_id = "${IDS.vpsRunning}"
  rulesets  = [1]
}
resource "hosting_server_firewall" "created" {
  server_id = "${IDS.vpsStopped}"
  rulesets  = [1, 2]
}
`);
    // The guide's second command writes tfplan, which its first one reads: run them in that order.
    const [showImports, planCreates] = block.code.trim().split(/\n(?=terraform )/);
    const creates = await ws.shell(planCreates);
    expect(creates.stdout.trim()).toBe(`hosting_server_firewall.created: The apply changes the firewall of ${IDS.vpsStopped}: rulesets [2] -> [1, 2]`);
    const imports = await ws.shell(showImports);
    expect(imports.stdout.trim()).toMatch(new RegExp('^hosting_server_firewall\\.imported: \\{.*"applied_rulesets":\\[[\\d,]*\\].*\\} -> \\{.*"rulesets":\\[1\\].*\\}$'));
  });

  test('terraform test: each plan-only run block says the takeover it plans', async () => {
    writeFileSync(mainTf, `${header}
variable "rulesets" {
  type    = list(number)
  default = [1, 2]
}
resource "hosting_server_firewall" "fw" {
  server_id = "${IDS.vpsStopped}"
  rulesets  = var.rulesets
}
`);
    const tests = join(ws.stackDir, 'tests');
    mkdirSync(tests, { recursive: true });
    const same = 'run "plan_${n}" {\n  command = plan\n}\n';
    writeFileSync(join(tests, 'takeover.tftest.hcl'), `${[1, 2, 3].map((n) => same.replace('${n}', String(n))).join('')}run "other" {
  command = plan
  variables {
    rulesets = [3]
  }
}
`);
    try {
      const before = sim.executed().length;
      const tested = await ws.terraform(['test', '-no-color']);
      expect(tested.output).toContain('4 passed, 0 failed');
      const said = (change: string) => tested.output.replace(/\s+/g, ' ').split(`The apply changes the firewall of ${IDS.vpsStopped}: ${change}`).length - 1;
      expect([said('rulesets [2] -> [1, 2]'), said('rulesets [2] -> [3]')]).toEqual([3, 1]);
      expect(sim.executed()).toHaveLength(before);
    } finally {
      rmSync(tests, { recursive: true, force: true });
    }
  });

  // Issue 60 §2: a test file says "takeovers reviewed" without editing the configuration.
  test('terraform test: expect_takeover = true in the test file\'s provider block silences every takeover of its run blocks', async () => {
    writeFileSync(mainTf, `${header}
resource "hosting_server_firewall" "fw" {
  server_id = "${IDS.vpsStopped}"
  rulesets  = [1, 2]
}
`);
    const tests = join(ws.stackDir, 'tests');
    mkdirSync(tests, { recursive: true });
    writeFileSync(join(tests, 'reviewed.tftest.hcl'), `provider "hosting" {
  base_url            = "${sim.baseUrl}"
  allow_insecure_http = true
  expect_takeover     = true
}
run "plan" {
  command = plan
}
`);
    try {
      const tested = await ws.terraform(['test', '-no-color']);
      expect(tested.output).toContain('1 passed, 0 failed');
      expect(tested.output).not.toContain('Creating this resource changes');
    } finally {
      rmSync(tests, { recursive: true, force: true });
    }
  });

  test('a data source read during the apply, after the resources it depends on changed things, reads fresh', async () => {
    writeFileSync(mainTf, `${header}
resource "hosting_power_state" "web2" {
  server_id = "${IDS.vpsStopped}"
  state     = "running"
}

data "hosting_servers" "after" {
  depends_on = [hosting_power_state.web2]
}

output "web2_power" {
  value = one([for s in data.hosting_servers.after.servers : s.power if s.id == "${IDS.vpsStopped}"])
}
`);
    expect(sim.state.server(IDS.vpsStopped).server.power).toBe('stopped');
    const run = await ws.apply();
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/web2_power = "running"/);
  });
});

/**
 * Issue 54 §2: a reviewer learns at plan that the apply will wait for the API's limits (section 8):
 * twelve stopped servers started are twelve power actions, beyond the token's ten a minute.
 */
describeWithTerraform('a plan whose apply exceeds the token\'s limits says so, once', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
  const ids = Array.from({ length: 12 }, (_, i) => `vps_fleet_${i + 1}`);

  beforeAll(async () => {
    const base = defaultSeed();
    const template = base.servers.find((s) => s.server.id === IDS.vpsStopped)!;
    const servers = ids.map((id) => ({ ...template, server: { ...template.server, id } }));
    // The spec's 10 power actions, in a window of 8 s rather than a minute: the eleventh waits a few seconds.
    const limits = { actionsPerToken: 10, windowMs: 8_000 };
    sim = await simulatorWithSentinel({ seed: { ...base, servers: [...base.servers, ...servers] }, limits });
    ws = new TerraformWorkspace(env);
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('twelve power actions: one warning names the limit, the count and about how long the apply waits; nothing is written', async () => {
    const { mainTf, header } = await ws.initHclFor(env, sim.baseUrl);
    writeFileSync(mainTf, `${header}\n${ids.map((id, i) => `resource "hosting_power_state" "p${i}" {\n  server_id       = "${id}"\n  state           = "running"\n  expect_takeover = true\n}`).join('\n')}`);
    const run = await ws.terraform(['plan', '-input=false', '-no-color']);
    expect(run.code).toBe(0);
    const said = run.output.replace(/\s+/g, ' ');
    expect(said.match(/Warning: The apply will wait for the API's rate limits: more than 10 power actions with this token/g)).toHaveLength(1);
    // The GitOps guide's jq line finds it in the plan's JSON stream, once.
    const guide = docBlocks().find((b) => b.file.endsWith('gitops-pipelines.md') && b.code.includes('The apply will wait'))!;
    const rendered = await ws.shell(guide.code.trim().split(/\n(?=terraform )/)[0]);
    expect(rendered.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^The apply will wait for the API's rate limits: more than 10 power actions with this token: This plan's first 11 changes/)]);
    expect(said).toContain('This plan\'s first 11 changes already take about 11 power actions; the token may send 10 a minute (the API\'s limit, section 8), so the apply waits for its budget, up to about 1 minute (each wait ends when the API\'s window resets)');
    expect(said).toContain('TF_LOG_PROVIDER=INFO');
    expect(sim.executed()).toHaveLength(0);
  });

  // Issue 70: the apply's walk plans each change again; the waits are said once they happened, under one summary.
  test('terraform apply: foretold once, by its plan; the waits that came told under one summary Terraform folds', async () => {
    const run = await ws.apply();
    expect(run.code).toBe(0);
    const said = run.output.replace(/\s+/g, ' ');
    expect(said.match(/Warning: The apply will wait for the API's rate limits/g)).toHaveLength(1);
    expect(said.match(/Warning: Waited for the API's rate limits/g)?.length).toBeGreaterThan(0);
    expect(said).toMatch(/waited \d+(\.\d)? s for the API's limits: \S+ s for the token's limit of 10 power actions/);
    expect(sim.executed().filter((e) => e.kind === 'action' && e.detail.includes('start'))).toHaveLength(12);
  }, 120_000);
});
