import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/*
 * The sequences of test/provider/intent-keys.test.ts (issue 46 §1) through the real terraform, which
 * also checks that the in-process protocol driver behaves as Terraform does: two accounts (two
 * simulators with the same server ids, the same token text), each step a real `terraform apply`,
 * the simulators' logs of executed writes the witness.
 */
describeWithTerraform('one key per intended action, through terraform', () => {
  let staging: RunningSimulator;
  let production: RunningSimulator;
  let ws: TerraformWorkspace;
  let mainTf: string;
  let header: string;
  const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
  const configure = (hcl: string) => writeFileSync(mainTf, `${header}
provider "hosting" {
  alias               = "production"
  base_url            = "${production.baseUrl}"
  allow_insecure_http = true
}
${hcl}`);
  const reboots = () => staging.executed({ serverId: IDS.vpsRunning, kind: 'action' }).filter((a) => a.detail === 'reboot').length;
  const power = (image: string, timeout: number) => `resource "hosting_power_state" "p" {
  server_id                 = "${IDS.vpsRunning}"
  state                     = "running"
  reboot_triggers           = { image = "${image}" }
  operation_timeout_seconds = ${timeout}
}
`;
  const firewalls = (names: string[]) => names.map((name) => `resource "hosting_server_firewall" "${name}" {
${name === 'production' ? '  provider   = hosting.production\n' : ''}  server_id  = "${IDS.vpsRunning}"
  enabled    = true
  rulesets   = [1]
  on_destroy = "restore"
}
`).join('');

  beforeAll(async () => {
    const account = () => simulatorWithSentinel({ operationDelays: { queuedMs: 0, runningMs: 50 } });
    [staging, production] = await Promise.all([account(), account()]);
    ws = new TerraformWorkspace(env);
    ({ mainTf, header } = await ws.initHclFor(env, staging.baseUrl));
  });
  afterAll(async () => {
    await Promise.all([staging?.close(), production?.close()]);
    ws?.dispose();
  });

  test('a reboot that outlived its timeout: raising the timeout does not reboot again, and the plan showed the generation', async () => {
    configure(power('v1', 2));
    expect((await ws.apply()).code).toBe(0);
    staging.setOperationDelays({ runningMs: 4_000 });
    configure(power('v2', 2));
    const plan = await ws.plan();
    expect(plan.output).toMatch(/~ reboot_generation\s+= 0 -> 1/);
    expect(plan.output).not.toContain('apply_id');
    const timedOut = await ws.apply();
    expect(timedOut.code).toBe(1);
    expect(timedOut.output).toContain('did not finish within 2s');
    configure(power('v2', 60));
    const raised = await ws.apply();
    expect(raised.code).toBe(0);
    expect(raised.output).not.toContain('reboot_generation');
    // Terraform shows `~ update in-place`; a change of nothing on the server is no warning.
    expect(raised.output).not.toContain('Warning');
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(reboots()).toBe(1);
    staging.setOperationDelays({ runningMs: 50 });
    configure('');
    expect((await ws.apply()).code).toBe(0);
  });

  test('four replaces of a restoring firewall all apply', async () => {
    configure(firewalls(['fw']));
    expect((await ws.apply()).code).toBe(0);
    for (let i = 1; i <= 4; i++) {
      const replaced = await ws.apply('-replace=hosting_server_firewall.fw');
      expect([i, replaced.code]).toEqual([i, 0]);
    }
    expect(staging.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [1] });
    configure('');
    expect((await ws.apply()).code).toBe(0);
  });

  test('two aliases, two accounts with the same server id: each warned of and restored from its own account', async () => {
    staging.drift(IDS.vpsRunning, { firewall: { enabled: false, rulesets: [] } });
    production.drift(IDS.vpsRunning, { firewall: { enabled: true, rulesets: [2, 3] } });
    configure(firewalls(['staging', 'production']));
    // Each takeover in the plan's stream, under the one summary Terraform folds in its text output.
    const planned = await ws.terraform(['plan', '-input=false', '-no-color', '-json']);
    const details = planned.output.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { diagnostic?: { detail?: string } }).diagnostic?.detail ?? '');
    expect(details.filter((d) => d.includes('enabled false -> true; rulesets [] -> [1]'))).toHaveLength(1);
    expect(details.filter((d) => d.includes('rulesets [2, 3] -> [1]'))).toHaveLength(1);
    const created = await ws.apply();
    expect(created.code).toBe(0);
    configure('');
    expect((await ws.apply()).code).toBe(0);
    expect(staging.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: false, rulesets: [] });
    expect(production.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [2, 3] });
  });

  test('a power state\'s every life gets its own reboots: destroy and apply, -replace, another address', async () => {
    const before = reboots();
    const rebootAt = (config: string) => {
      configure(config);
      return ws.apply();
    };
    expect((await rebootAt(power('v1', 60))).code).toBe(0);
    expect((await rebootAt(power('v2', 60))).code).toBe(0);
    expect(reboots() - before).toBe(1);
    // Life two: destroyed, then created again at v1 and changed to v2.
    expect((await rebootAt('')).code).toBe(0);
    expect((await rebootAt(power('v1', 60))).code).toBe(0);
    const second = await rebootAt(power('v2', 60));
    expect(second.code).toBe(0);
    expect(second.output).not.toContain('earlier, interrupted run');
    expect(reboots() - before).toBe(2);
    // Life three: replaced at v1, then v2.
    configure(power('v1', 60));
    expect((await ws.apply('-replace=hosting_power_state.p')).code).toBe(0);
    expect((await rebootAt(power('v2', 60))).code).toBe(0);
    expect(reboots() - before).toBe(3);
    // Life four: the same server under a for_each key.
    const keyed = (image: string) => power(image, 60).replace('"p" {', '"q" {\n  for_each                  = toset(["web"])');
    expect((await rebootAt(keyed('v1'))).code).toBe(0);
    expect((await rebootAt(keyed('v2'))).code).toBe(0);
    expect(reboots() - before).toBe(4);
    configure('');
    expect((await ws.apply()).code).toBe(0);
  });

  test('terraform test: a run block\'s create reads what it takes over, not what an earlier block read, and the final destroy restores it', async () => {
    staging.drift(IDS.vpsRunning, { firewall: { enabled: false, rulesets: [] } });
    writeFileSync(mainTf, `${header}
variable "n" {
  type    = number
  default = 1
}
resource "hosting_server_firewall" "fw" {
  count      = var.n
  server_id  = "${IDS.vpsRunning}"
  enabled    = true
  rulesets   = [1]
  on_destroy = "restore"
}
`);
    const dir = join(ws.stackDir, 'tests');
    mkdirSync(join(dir, 'by-hand'), { recursive: true });
    // A change by hand between two run blocks, through the simulator's control surface.
    const patch = JSON.stringify({ firewall: { enabled: true, rulesets: [3] } });
    writeFileSync(join(dir, 'by-hand', 'main.tf'), `resource "terraform_data" "drift" {
  provisioner "local-exec" {
    command     = "node -e \\"fetch(process.env.URL, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: process.env.BODY }).then((r) => process.exit(r.ok ? 0 : 1))\\""
    environment = { URL = "${staging.controlUrl}/servers/${IDS.vpsRunning}", BODY = ${JSON.stringify(patch)} }
  }
}
`);
    writeFileSync(join(dir, 'lives.tftest.hcl'), `run "create" {}
run "remove" {
  variables {
    n = 0
  }
}
run "by_hand" {
  module {
    source = "./tests/by-hand"
  }
}
run "create_again" {}
`);
    try {
      // The module a run block names is installed by init.
      expect((await ws.init()).code).toBe(0);
      const tested = await ws.terraform(['test']);
      expect(tested.output).toContain('4 passed, 0 failed');
      expect(tested.output).toContain('rulesets [3] -> [1]');
      // The test's destroy put back what the second create took over, the change by hand.
      expect(staging.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [3] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
