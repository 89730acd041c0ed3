import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { filesBelow } from '../helpers/files';
import { HOSTILE_TEXT } from '../helpers/hostile-account';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { describeWithNewerTerraform, type NewerTerraform } from '../helpers/newer-terraform';
import { simulatorWithSentinel } from '../helpers/simulator';
import { DOCS_REGISTRY_SOURCE, firewallHcl, TerraformWorkspace } from '../helpers/terraform';

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'hcl');


/** One suite's simulator and workspace on a newer Terraform: `hcl` is main.tf (with the mirror's blocks), `setUp` adds files. */
interface Suite {
  sim: RunningSimulator;
  ws: TerraformWorkspace;
  /** The CLI configuration that installs the provider from its mirror. */
  readonly env: Record<string, string>;
}

function suiteOn(
  path: () => string, hcl: (sim: RunningSimulator) => string, setUp: (suite: Suite) => void = () => undefined, mirrorOptions: string[] = [],
): Suite {
  const suite = { env: {} } as Suite;
  beforeAll(async () => {
    suite.sim = await simulatorWithSentinel();
    suite.ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN, PATH: path(), TF_VAR_hosting_api_url: suite.sim.baseUrl });
    suite.ws.writeHcl(suite.env, hcl(suite.sim), mirrorOptions);
    setUp(suite);
  });
  afterAll(async () => {
    await suite.sim?.close();
    suite.ws?.dispose();
  });
  return suite;
}

const HCL = (sim: RunningSimulator) => `
${firewallHcl(sim.baseUrl)}resource "hosting_ip_settings" "www" {
  server_id = "${IDS.dedicated}"
  ip        = "${IPS.secondary}"
  rdns      = "www.example.com"
}
resource "hosting_power_state" "web2" {
  server_id = "${IDS.vpsStopped}"
  state     = "running"
}
data "hosting_servers" "vps" {
  type = "vps"
}
output "vps_count" {
  value = length(data.hosting_servers.vps.ids)
}
`;

/** The provider's core on each newer Terraform: apply, a clean plan, drift, import, data sources, and resource identity. */
for (const release of ['1.12', '1.14', '1.15'] satisfies NewerTerraform[]) {
  describeWithNewerTerraform(release, `the provider's core on Terraform ${release}`, (path) => {
    const suite = suiteOn(path, HCL);
    const terraform = (...args: string[]) => suite.ws.terraform([...args, '-input=false', '-no-color'], { env: suite.env });

    test('apply, a clean plan, drift seen, and every resource\'s identity in the state', async () => {

      const { sim, ws, env } = suite;
      expect((await terraform('init')).code).toBe(0);
      const apply = await terraform('apply', '-auto-approve');
      expect(apply.output).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
      expect(apply.output).toMatch(/vps_count = \d+/);
      expect((await ws.terraform(['plan', '-input=false', '-no-color', '-detailed-exitcode'], { env })).code).toBe(0);
      const shown = JSON.parse((await ws.terraform(['show', '-json'], { env })).output) as { values: { root_module: { resources: Array<{ address: string; identity?: object }> } } };
      const identities = Object.fromEntries(shown.values.root_module.resources.filter((r) => r.address.startsWith('hosting_')).map((r) => [r.address, r.identity]));
      expect(identities).toEqual({
        'hosting_server_firewall.web': { server_id: IDS.vpsRunning },
        'hosting_ip_settings.www': { server_id: IDS.dedicated, ip: IPS.secondary },
        'hosting_power_state.web2': { server_id: IDS.vpsStopped },
      });
      sim.drift(IDS.vpsRunning, { firewall: { enabled: false } });
      const drifted = await ws.terraform(['plan', '-input=false', '-no-color', '-detailed-exitcode'], { env });
      expect(drifted.output).toMatch(/~ enabled\s+= false -> true/);
      expect(drifted.code).toBe(2);
    });

    test('an import block by identity imports the object as it is, writing nothing', async () => {

      const { sim, ws } = suite;
      writeFileSync(join(ws.stackDir, 'import.tf'), `
import {
  to       = hosting_server_firewall.db
  identity = { server_id = "${IDS.vdsRunning}" }
}
resource "hosting_server_firewall" "db" {
  server_id = "${IDS.vdsRunning}"
  enabled   = true
}
`);
      const writes = sim.executed().length;
      const plan = await terraform('plan');
      expect(plan.output).toMatch(/hosting_server_firewall\.db: Preparing import/);
      expect(plan.output).toMatch(/Plan: 1 to import, 0 to add, 1 to change, 0 to destroy\./);
      expect(sim.executed()).toHaveLength(writes);
    });
  });
}

/** Two run blocks, run in parallel on their own states, each creating a power state on a server of its own. */
const WALKS_TEST = `run "a" {
  parallel = true
  variables {
    server = "${IDS.vpsRunning}"
  }
}
run "b" {
  parallel  = true
  state_key = "b"
  variables {
    server = "${IDS.vdsRunning}"
  }
}
`;

/** `terraform test` with parallel run blocks, in every release: each provider process stands alone. */
for (const release of ['1.12', '1.14', '1.15'] satisfies NewerTerraform[]) {
  describeWithNewerTerraform(release, `terraform test with parallel run blocks on Terraform ${release}`, (path) => {
    const suite = suiteOn(path, (sim) => `provider "hosting" {
  base_url = "${sim.baseUrl}"
}
variable "server" {
  type = string
}
resource "hosting_power_state" "p" {
  server_id = var.server
  state     = "running"
}
`, ({ ws }) => {
      mkdirSync(join(ws.stackDir, 'tests'), { recursive: true });
      writeFileSync(join(ws.stackDir, 'tests', 'walks.tftest.hcl'), WALKS_TEST);
    });

    test('both blocks pass and leave no file but the shared pacing budget; a wrong token fails each block on the token\'s one error', async () => {
      const { ws, env } = suite;
      const tmp = join(ws.root, 'tmp');
      mkdirSync(tmp, { recursive: true });
      expect((await ws.terraform(['init', '-input=false', '-no-color'], { env })).code).toBe(0);
      const tested = await ws.terraform(['test', '-no-color'], { env: { ...env, TMPDIR: tmp } });
      expect(tested.output).toContain('2 passed, 0 failed');
      expect(readdirSync(tmp).filter((name) => !name.startsWith('cdktf-server-hosting-pacing-'))).toEqual([]);
      const refused = await ws.terraform(['test', '-no-color'], { env: { ...env, HOSTING_API_TOKEN: 'hsim_not_a_token_of_this_account' } });
      expect(refused.output).not.toMatch(/bug in the provider|inconsistent (final )?plan/i);
      const errors = refused.output.split('\n').filter((line) => line.startsWith('Error: '));
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((line) => line.startsWith('Error: the token in HOSTING_API_TOKEN was refused by '))).toBe(true);
    });
  });
}

const QUERY = `
list "hosting_server_firewall" "all" {
  provider = hosting
}
list "hosting_ip_settings" "all" {
  provider = hosting
}
list "hosting_power_state" "vps" {
  provider = hosting
  config {
    type = "vps"
  }
}
`;

/** `terraform query` (Terraform 1.14+): list resources, and `-generate-config-out` whose first plan imports only. */
for (const release of ['1.14', '1.15'] satisfies NewerTerraform[]) {
  describeWithNewerTerraform(release, `terraform query on Terraform ${release}`, (path) => {
    const suite = suiteOn(path, (sim) => `provider "hosting" {\n  base_url = "${sim.baseUrl}"\n}\n`, ({ ws }) => writeFileSync(join(ws.stackDir, 'account.tfquery.hcl'), QUERY));
    const terraform = (...args: string[]) => suite.ws.terraform([...args, '-input=false', '-no-color'], { env: suite.env });

    test('lists every object the account can manage by its identity, shared servers left out, with one GET /servers and no other read', async () => {

      const { sim, ws, env } = suite;
      expect((await terraform('init')).code).toBe(0);
      const before = sim.requests.length;
      const query = await ws.terraform(['query', '-no-color'], { env });
      expect(query.code).toBe(0);
      expect(query.output).toMatch(/list\.hosting_server_firewall\.all\s+server_id=vps_web_1\s+web-1 \(vps_web_1\)/);
      expect(query.output).toMatch(/list\.hosting_ip_settings\.all\s+ip=203\.0\.113\.11,server_id=ded_/);
      expect(query.output).not.toContain(IDS.vpsShared);
      expect(query.output).not.toMatch(/list\.hosting_server_firewall\.all\s+server_id=ded_/);
      const reads = sim.requests.slice(before).map((r) => r.endpoint);
      expect(reads.filter((r) => r === 'GET /servers')).toHaveLength(1);
      expect(reads.filter((r) => r !== 'GET /servers' && r !== 'GET /connect')).toEqual([]);
    });

    test('-generate-config-out writes resources and import blocks by identity whose first plan imports only, and whose apply writes nothing', async () => {
      const { sim, ws, env } = suite;
      // Text from the API arrives in the generated file as a literal: were a template evaluated, the first plan would change it.
      sim.drift(IDS.dedicated, { ip: { address: IPS.primary, description: HOSTILE_TEXT } });
      const query = await ws.terraform(['query', '-no-color', '-generate-config-out=generated.tf'], { env });
      expect(query.code).toBe(0);
      const plan = await terraform('plan');
      const found = /Plan: (\d+) to import, 0 to add, 0 to change, 0 to destroy\./.exec(plan.output);
      expect(found).not.toBeNull();
      expect(Number(found![1])).toBeGreaterThan(10);
      const generated = readFileSync(join(ws.stackDir, 'generated.tf'), 'utf8');
      // Terraform aligns the equals signs of a block: compare with one space before each.
      expect(generated.replace(/ +=/g, ' =')).toContain('description = "$${file(\\"/etc/hostname\\")} costs %%{month} \\"q\\"');
      expect(generated).not.toMatch(/(^|[^$])\$\{file/);
      const writes = sim.executed().length;
      expect((await terraform('apply', '-auto-approve')).code).toBe(0);
      expect(sim.executed()).toHaveLength(writes);
      expect((await ws.terraform(['plan', '-input=false', '-no-color', '-detailed-exitcode'], { env })).code).toBe(0);
      expect(sim.state.server(IDS.dedicated).ipSettings.get(IPS.primary)?.description).toBe(HOSTILE_TEXT);
    });
  });
}

const ACTIONS_HCL = (sim: RunningSimulator) => `
provider "hosting" {
  base_url = "${sim.baseUrl}"
}
action "hosting_server_reboot" "web1" {
  config {
    server_id = "${IDS.vpsRunning}"
  }
}
action "hosting_server_reboot" "web2" {
  config {
    server_id = "${IDS.vpsStopped}"
  }
}
action "hosting_server_power" "web2_on" {
  config {
    server_id = "${IDS.vpsStopped}"
    state     = "running"
  }
}
variable "release" {
  type    = string
  default = "1"
}
resource "hosting_server_firewall" "web1" {
  server_id = "${IDS.vpsRunning}"
  enabled   = var.release != "0"
  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.hosting_server_reboot.web1]
    }
  }
}
`;

/** Actions (Terraform 1.14+): invoked once each, with PowerState's rules, by -invoke and by an action_trigger. */
describeWithNewerTerraform('1.15', 'actions on Terraform 1.15', (path) => {
  const suite = suiteOn(path, ACTIONS_HCL);
  const terraform = (...args: string[]) => suite.ws.terraform([...args, '-input=false', '-no-color', '-auto-approve'], { env: suite.env });
  const actions = () => suite.sim.executed({ kind: 'action' }).map((a) => `${a.serverId} ${a.detail}`);

  test('-invoke reboots a running server exactly once, with progress; a stopped server is not rebooted (a warning); the power action starts it', async () => {

    const { ws, env } = suite;
    expect((await ws.terraform(['init', '-input=false', '-no-color'], { env })).code).toBe(0);
    expect((await terraform('apply')).code).toBe(0);
    const reboot = await terraform('apply', '-invoke=action.hosting_server_reboot.web1');
    expect(reboot.output).toMatch(/Action action\.hosting_server_reboot\.web1 \(triggered by CLI\): reboot vps_web_1: reboot accepted as operation op_\d+/);
    // Done as asked: progress, not a warning.
    expect(reboot.output).toMatch(/Action action\.hosting_server_reboot\.web1 \(triggered by CLI\): reboot vps_web_1: rebooted \(reboot\), because the action was invoked/);
    expect(reboot.output).not.toContain('Warning');
    expect(reboot.code).toBe(0);
    expect(actions()).toEqual([`${IDS.vpsRunning} reboot`]);

    const stopped = await terraform('apply', '-invoke=action.hosting_server_reboot.web2');
    expect(stopped.output).toContain(`reboot ${IDS.vpsStopped}: the server is stopped, so the invocation will not reboot it`);
    expect(stopped.output).toContain('Warning');
    expect(stopped.code).toBe(0);
    expect(actions()).toEqual([`${IDS.vpsRunning} reboot`]);

    expect((await terraform('apply', '-invoke=action.hosting_server_power.web2_on')).code).toBe(0);
    expect(actions()).toEqual([`${IDS.vpsRunning} reboot`, `${IDS.vpsStopped} start`]);
  });

  test('an action_trigger after_update reboots once when the resource changes, and never when it does not', async () => {
    const before = actions().length;
    expect((await terraform('apply', '-var', 'release=0')).code).toBe(0);
    expect(actions().slice(before)).toEqual([`${IDS.vpsRunning} reboot`]);
    expect((await terraform('apply', '-var', 'release=0')).code).toBe(0);
    expect(actions().slice(before)).toEqual([`${IDS.vpsRunning} reboot`]);
  });
});

/** The docs' HCL examples, actions and list resources included, as a Terraform 1.15 user runs them. */
describeWithNewerTerraform('1.15', 'the HCL examples of the docs on Terraform 1.15', (path) => {
  // The examples bring their own required_providers and provider block (provider.tf).
  const suite = suiteOn(path, () => '', ({ ws }) => {
    rmSync(join(ws.stackDir, 'main.tf'));
    for (const file of filesBelow(EXAMPLES)) copyFileSync(file, join(ws.stackDir, relative(EXAMPLES, file).replace(/\//g, '--')));
  }, ['--source', DOCS_REGISTRY_SOURCE]);

  test('apply, a clean plan, terraform query, and both actions invoked', async () => {

    const { sim, ws, env } = suite;
    const terraform = (...args: string[]) => suite.ws.terraform([...args, '-input=false', '-no-color'], { env: suite.env });
    expect((await terraform('init')).code).toBe(0);
    expect((await terraform('apply', '-auto-approve')).code).toBe(0);
    expect((await terraform('plan', '-detailed-exitcode')).code).toBe(0);
    const query = await ws.terraform(['query', '-no-color'], { env });
    expect(query.output).toMatch(/list\.hosting_server_firewall\.vps\s+server_id=vps_web_1/);
    expect(query.output).toMatch(/list\.hosting_power_state\.active\s+server_id=/);
    expect(query.code).toBe(0);
    const before = sim.executed({ kind: 'action' }).length;
    expect((await terraform('apply', '-auto-approve', '-invoke=action.hosting_server_reboot.db')).code).toBe(0);
    expect((await terraform('apply', '-auto-approve', '-invoke=action.hosting_server_power.db_on')).code).toBe(0);
    // db-1 runs already: the power action has nothing to do; the reboot ran once.
    expect(sim.executed({ kind: 'action' }).slice(before).map((a) => `${a.serverId} ${a.detail}`)).toEqual([`${IDS.vdsRunning} reboot`]);
  });
});
