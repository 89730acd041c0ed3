import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMirrorCommand } from '../../src/cli/provider-command';
import { PROVIDER_SOURCE } from '../../src/contract/provider-address';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { cdktfCli } from '../helpers/cdktf-cli';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TERRAFORM_RC } from '../helpers/terraform';

const ROOT = join(__dirname, '..', '..');
const DESCRIPTION = 'web "1" \\ costs ${5} a %{month}';

/** Runs a command without blocking this process: the simulator answers from its event loop. */
function run(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A cdktf project of one JavaScript program, `main.js` of `lines`, with the providers cdktf.json names. */
function writeProject(project: string, lines: string[], terraformProviders: string[] = []): void {
  writeFileSync(join(project, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'node main.js', output: 'cdktf.out', terraformProviders, terraformModules: [] }));
  writeFileSync(join(project, 'main.js'), [...lines, 'app.synth();', ''].join('\n'));
}

/**
 * What most cdktf users type: `cdktf deploy`, `cdktf diff` and `cdktf destroy` of cdktf-cli 0.21
 * from npm, on a project whose stack synthesizes fresh, with no hand edits and no --skip-synth.
 * cdktf-cli reads the synthesized lock file to decide whether to run `terraform providers lock`,
 * which could not reach the provider's hostname: the lock file must be current as synthesized.
 */
describeWithTerraform('cdktf-cli deploys, diffs and destroys a freshly synthesized stack', () => {
  let sim: RunningSimulator;
  const project = mkdtempSync(join(tmpdir(), 'cdktf-cli-'));
  let env: Record<string, string>;
  let CLI: string;

  beforeAll(async () => {
    CLI = cdktfCli();
    // The program imports the built library by path, as a project that installed the package would by name.
    expect(spawnSync('node', ['scripts/prepack.js'], { cwd: ROOT, encoding: 'utf8' }).status).toBe(0);
    sim = await simulatorWithSentinel();
    env = { HOSTING_API_TOKEN: SENTINEL_TOKEN, TF_CLI_CONFIG_FILE: TERRAFORM_RC, CHECKPOINT_DISABLE: '1', CI: 'true', FORCE_COLOR: '0' };
    writeProject(project, [
      `const { App, TerraformStack } = require(${JSON.stringify(join(ROOT, 'node_modules', 'cdktf'))});`,
      `const { HostingApi, IpSettings, PowerState, PowerStateValue, ServerFirewall } = require(${JSON.stringify(join(ROOT, 'lib'))});`,
      'const app = new App();',
      "const stack = new TerraformStack(app, 'web');",
      `const api = new HostingApi(stack, 'hosting', { baseUrl: ${JSON.stringify(sim.baseUrl)} });`,
      `new ServerFirewall(stack, 'fw', { api, serverId: '${IDS.vpsRunning}', enabled: true, rulesets: [1] });`,
      `new IpSettings(stack, 'ip', { api, serverId: '${IDS.dedicated}', ip: '${IPS.secondary}', description: ${JSON.stringify(DESCRIPTION)} });`,
      `new PowerState(stack, 'power', { api, serverId: '${IDS.vpsStopped}', state: PowerStateValue.RUNNING });`,
    ]);
  }, 300_000);
  afterAll(async () => {
    await sim?.close();
    rmSync(project, { recursive: true, force: true });
  });

  test('cdktf deploy applies every kind; the description arrives exactly', async () => {
    const deploy = await run(CLI, ['deploy', '--auto-approve'], project, env);
    expect(deploy.output).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
    expect(deploy.output).not.toMatch(/providers lock|Could not retrieve providers/);
    // The takeovers (a firewall turned on, a server started) are told in TypeScript alone.
    expect(deploy.output).toContain('expectTakeover: true');
    expect(deploy.output).not.toMatch(/expect_takeover|Python|provider "hosting" block/);
    expect(deploy.code).toBe(0);
    expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [1] });
    expect(sim.state.server(IDS.dedicated).ipSettings.get(IPS.secondary)?.description).toBe(DESCRIPTION);
    expect(sim.state.server(IDS.vpsStopped).server.power).toBe('running');
  });

  test('cdktf diff after it shows no change and writes nothing', async () => {
    const before = sim.executed().length;
    const diff = await run(CLI, ['diff'], project, env);
    expect(diff.output).toContain('No changes.');
    expect(diff.code).toBe(0);
    expect(sim.executed()).toHaveLength(before);
  });

  test('cdktf destroy removes the resources (settings retained, as documented)', async () => {
    const destroy = await run(CLI, ['destroy', '--auto-approve'], project, env);
    expect(destroy.output).toContain('Destroy complete! Resources: 3 destroyed.');
    // The plan says what each removal leaves in place, under one summary that Terraform folds.
    expect(destroy.output.match(/Removing this resource from Terraform leaves its settings on the server/g)).toHaveLength(1);
    expect(destroy.output).toContain('(and 2 more similar warnings elsewhere)');
    const said = destroy.output.replace(/\s+/g, ' ');
    expect([`the firewall of ${IDS.vpsRunning}`, `the settings of ${IPS.secondary} on ${IDS.dedicated}`, `${IDS.vpsStopped}, which stays running`].some((left) => said.includes(left))).toBe(true);
    expect(destroy.code).toBe(0);
  });
});

/**
 * cdktf's own bindings (`cdktf provider add`, `cdktf get`) of the provider installed from a
 * filesystem mirror, as docs/guides/provider.md says: a fresh checkout has no lock file, so cdktf
 * runs `terraform providers lock`, which asks the source's host and never the CLI configuration's
 * mirror. The stack is written as the generated classes write it (a TerraformProvider with the
 * mirror's source and version, a resource of its type).
 */
describeWithTerraform('cdktf-cli with generated bindings, the provider from a filesystem mirror', () => {
  let sim: RunningSimulator;
  const project = mkdtempSync(join(tmpdir(), 'cdktf-cli-bindings-'));
  let env: Record<string, string>;
  let CLI: string;

  beforeAll(async () => {
    CLI = cdktfCli();
    sim = await simulatorWithSentinel();
    let printed = '';
    runMirrorCommand([join(project, 'mirror')], (text) => (printed += text));
    const rc = join(project, 'terraform.rc');
    writeFileSync(rc, `${readFileSync(TERRAFORM_RC, 'utf8')}\n${/^provider_installation \{\n[\s\S]*?^\}$/m.exec(printed)![0]}\n`);
    const version = /version += "([^"]+)"/.exec(printed)![1];
    env = { HOSTING_API_TOKEN: SENTINEL_TOKEN, HOSTING_API_URL: sim.baseUrl, TF_CLI_CONFIG_FILE: rc, CHECKPOINT_DISABLE: '1', CI: 'true', FORCE_COLOR: '0' };
    writeProject(project, [
      `const { App, TerraformProvider, TerraformResource, TerraformStack } = require(${JSON.stringify(join(ROOT, 'node_modules', 'cdktf'))});`,
      'const app = new App();',
      "const stack = new TerraformStack(app, 'web');",
      `const provider = new TerraformProvider(stack, 'hosting', { terraformResourceType: 'hosting', terraformProviderSource: '${PROVIDER_SOURCE}', terraformGeneratorMetadata: { providerName: 'hosting', providerVersion: '${version}' } });`,
      "const firewall = new TerraformResource(stack, 'fw', { terraformResourceType: 'hosting_server_firewall', provider });",
      `firewall.addOverride('server_id', '${IDS.vdsRunning}');`,
      "firewall.addOverride('enabled', true);",
      "firewall.addOverride('expect_takeover', true);",
    ], [`${PROVIDER_SOURCE}@${version}`]);
  }, 300_000);
  afterAll(async () => {
    await sim?.close();
    rmSync(project, { recursive: true, force: true });
  });

  test('a fresh checkout fails at terraform providers lock, naming the host; --skip-provider-lock deploys, and the next diff is clean', async () => {
    const locked = await run(CLI, ['deploy', '--auto-approve'], project, env);
    expect(locked.output.replace(/\s+/g, ' ')).toContain('Could not retrieve providers for locking');
    expect(locked.code).not.toBe(0);
    const deploy = await run(CLI, ['deploy', '--auto-approve', '--skip-provider-lock'], project, env);
    expect(deploy.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(deploy.code).toBe(0);
    expect(sim.state.server(IDS.vdsRunning).firewall?.enabled).toBe(true);
    // terraform init recorded the lock file from the mirror: from now on cdktf runs no providers lock.
    const diff = await run(CLI, ['diff'], project, env);
    expect(diff.output).toContain('No changes.');
    expect(diff.code).toBe(0);
  });
});
