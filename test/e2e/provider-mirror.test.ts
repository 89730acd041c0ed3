import { join } from 'node:path';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/**
 * Plain HCL, no cdktf: `provider mirror <dir>` writes a filesystem mirror and prints the two blocks
 * to paste; with them, `terraform init && terraform apply` work offline.
 */
describeWithTerraform('the provider from plain HCL through `provider mirror`', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  let printed = '';

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
    ws = new TerraformWorkspace(env);
    printed = ws.writeHcl(env, `provider "hosting" {
  base_url = "${sim.baseUrl}"
}

resource "hosting_server_firewall" "web" {
  server_id = "${IDS.vpsRunning}"
  enabled   = true
}

resource "hosting_ip_settings" "primary" {
  server_id = "${IDS.dedicated}"
  ip        = "${IPS.primary}"
  rdns      = var.rdns
}

variable "rdns" {
  type    = string
  default = "web.example.com"
}

output "applied_rulesets" {
  value = hosting_server_firewall.web.applied_rulesets
}
`);
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('the printed blocks name the mirror and pin the version of the bundle written there', () => {
    expect(printed).toContain(`path    = ${JSON.stringify(join(ws.root, 'mirror'))}`);
    expect(printed).toMatch(/source {2}= "local\.cdktf-server-hosting\.invalid\/cdktf-server-hosting\/hosting"\n\s+version = "\d+\.\d+\.\d+\S*"/);
  });

  test('terraform init and apply install the provider offline and converge; the next plan is empty', async () => {
    const init = await ws.init();
    expect(init.output).toContain('Installing local.cdktf-server-hosting.invalid/cdktf-server-hosting/hosting');
    expect(init.code).toBe(0);
    const run = await ws.apply();
    expect(run.code).toBe(0);
    expect(run.output).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
    expect(run.output).toMatch(/applied_rulesets = toset\(\[/);
    expect(sim.executed().map((w) => w.detail).sort()).toEqual(['{"enabled":true}', '{"rdns":"web.example.com"}']);
    expect((await ws.plan()).code).toBe(0);
  });

  test('--source publishes it under a team\'s own address: the printed blocks name it, init installs it from the mirror, apply converges', async () => {
    const source = 'registry.example.com/platform/hosting';
    const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
    const own = new TerraformWorkspace(env);
    try {
      const blocks = own.writeHcl(env, `provider "hosting" {\n  base_url = "${sim.baseUrl}"\n}\n\nresource "hosting_power_state" "web" {\n  server_id = "${IDS.vpsRunning}"\n  state     = "running"\n}\n`, ['--source', source]);
      expect(blocks).toContain(`source  = "${source}"`);
      expect(blocks).toContain('include = ["registry.example.com/*/*"]');
      const init = await own.init();
      expect(init.output).toContain(`Installing ${source}`);
      expect(init.code).toBe(0);
      expect((await own.apply()).code).toBe(0);
      expect((await own.plan()).code).toBe(0);
    } finally {
      own.dispose();
    }
  });

  test('HCL gets the constructs\' checks at validate time, naming the attribute', async () => {
    const run = await ws.terraform(['plan', '-input=false', '-no-color', '-var', 'rdns=not a host name']);
    expect(run.code).toBe(1);
    expect(run.output).toContain('invalid rdns: must be one word without spaces or control characters');
    expect(run.output).toContain('with hosting_ip_settings.primary');
  });
});

describeWithTerraform('plain HCL: the provider block\'s mistakes are reported without leaking', () => {
  let sim: RunningSimulator;
  const workspaces: TerraformWorkspace[] = [];
  const hcl = async (providerBlock: string) => {
    const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN, HOSTING_API_URL: sim.baseUrl };
    const ws = new TerraformWorkspace(env);
    workspaces.push(ws);
    ws.writeHcl(env, `${providerBlock}

resource "terraform_data" "later" {
  input = "${sim.baseUrl}"
}

resource "hosting_server_firewall" "web" {
  server_id = "${IDS.vpsRunning}"
  enabled   = true
}

resource "hosting_server_firewall" "api" {
  server_id = "${IDS.vpsStopped}"
  enabled   = true
}
`);
    expect((await ws.init()).code).toBe(0);
    return ws;
  };
  beforeAll(async () => {
    sim = await simulatorWithSentinel();
  });
  afterAll(async () => {
    await sim?.close();
    workspaces.forEach((ws) => ws.dispose());
  });

  test.each([
    ['over several lines', (url: string) => `provider "hosting" {\n  base_url      = "${url}"\n  token_env_var = "${SENTINEL_TOKEN}"\n}`],
    // A one-line block holds one argument: the URL comes from HOSTING_API_URL.
    ['on one line', () => `provider "hosting" { token_env_var = "${SENTINEL_TOKEN}" }`],
  ])('a token pasted into token_env_var (%s) is refused by plan and apply, and appears nowhere in any output', async (_name, block) => {
    const ws = await hcl(block(sim.baseUrl));
    // validate cannot refuse it: Terraform would print the provider block's line, the token with it.
    const validate = await ws.terraform(['validate', '-no-color']);
    expect(validate.output).not.toContain(SENTINEL_TOKEN);
    for (const args of [['plan', '-input=false', '-no-color'], ['apply', '-auto-approve', '-input=false', '-no-color']]) {
      const run = await ws.terraform(args);
      expect(run.code).toBe(1);
      // Each resource's error says the cause in its first line (Terraform prints them in any order); the rule once.
      const errors = run.output.split('\n').filter((line) => line.startsWith('Error: '));
      expect(errors).toEqual(Array(2).fill('Error: token_env_var in the provider "hosting" block is not the NAME of an environment variable (its value is not shown, in case it is a token)'));
      expect(run.output.match(/short\s+upper-case\s+words\s+joined\s+by\s+underscores/g)).toHaveLength(1);
      expect(run.output).not.toContain(SENTINEL_TOKEN);
    }
    expect(sim.requests.filter((r) => r.tokenName === 'sentinel')).toEqual([]);
  });

  test('a base_url not known until apply is reported, never replaced by the environment\'s', async () => {
    const ws = await hcl(`provider "hosting" {
  base_url = terraform_data.later.output
}`);
    const run = await ws.terraform(['plan', '-input=false', '-no-color'], { env: { HOSTING_API_URL: sim.baseUrl } });
    expect(run.code).toBe(1);
    expect(run.output).toContain('base_url of the provider "hosting" block is not known until apply');
  });
});
