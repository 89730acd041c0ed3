import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providerBuilds } from '../../src/cli/provider-builds';
import { runMirrorCommand } from '../../src/cli/provider-command';
import { HostingApi, ServerFirewall } from '../../src/constructs';
import { PROVIDER_SOURCE } from '../../src/contract/provider-address';
import { packageHash1, providerVersion, readProviderBundle } from '../../src/contract/provider-mirror';
import { SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { serveOverHttps } from '../helpers/https-mirror';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, firewallHcl, pathWithTerraformOnly, TERRAFORM_RC, TerraformWorkspace } from '../helpers/terraform';

/*
 * The standalone provider where Terraform runs without Node: every terraform below runs with a PATH
 * that holds terraform alone. Runs in the package step, after `package:standalone` has built the
 * executables into the shared cache (so `npm test` pays nothing for them); run alone, it builds the
 * linux_amd64 one first (about 15 s, once).
 */

const STANDALONE = ['--standalone', '--platform', 'linux_amd64'];

const HCL = (sim: RunningSimulator) => `
${firewallHcl(sim.baseUrl)}data "hosting_server" "web" {
  id = "${IDS.vpsRunning}"
}
output "power" {
  value = data.hosting_server.web.power
}
`;

describeWithTerraform('the standalone provider: terraform with no node on PATH', () => {
  let sim: RunningSimulator;
  const workspaces: TerraformWorkspace[] = [];
  const workspace = () => {
    const ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
    workspaces.push(ws);
    return Object.assign(ws, { PATH: pathWithTerraformOnly(ws.root) });
  };

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
  });
  afterAll(async () => {
    await sim?.close();
    workspaces.forEach((ws) => ws.dispose());
  });

  test('from a filesystem mirror: init, apply, a clean plan, and drift seen, with no node or npx reachable', async () => {
    const ws = workspace();
    const env: Record<string, string> = {};
    const printed = ws.writeHcl(env, HCL(sim), STANDALONE);
    expect(printed).toContain('standalone executables with Node 22.23.2, no Node needed; linux_amd64');
    for (const command of ['node', 'npx']) expect(spawnSync(command, ['--version'], { env: { PATH: ws.PATH } }).error).toMatchObject({ code: 'ENOENT' });
    const run = (args: string[]) => ws.terraform(args, { env: { ...env, PATH: ws.PATH } });

    const init = await run(['init', '-input=false', '-no-color']);
    expect(init.output).toContain(`Installing ${PROVIDER_SOURCE}`);
    expect(init.code).toBe(0);
    const apply = await run(['apply', '-auto-approve', '-input=false', '-no-color']);
    expect(apply.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(apply.output).toContain('power = "running"');
    expect(apply.code).toBe(0);
    expect(sim.executed({ serverId: IDS.vpsRunning, kind: 'firewall' }).map((w) => w.detail)).toEqual(['{"enabled":true,"rulesets":[1]}']);
    const clean = await run(['plan', '-input=false', '-no-color', '-detailed-exitcode']);
    expect(clean.output).toContain('No changes.');
    expect(clean.code).toBe(0);

    sim.drift(IDS.vpsRunning, { firewall: { enabled: false } });
    const drifted = await run(['plan', '-input=false', '-no-color', '-detailed-exitcode']);
    expect(drifted.output).toMatch(/~ enabled\s+= false -> true/);
    expect(drifted.code).toBe(2);
  });

  test('from a network mirror (the packed layout served over HTTPS): init and plan', async () => {
    const ws = workspace();
    const mirror = join(ws.root, 'packed');
    runMirrorCommand([mirror, '--packed', ...STANDALONE], () => undefined, () => undefined);
    const served = await serveOverHttps(mirror);
    try {
      const env: Record<string, string> = {};
      ws.writeHcl(env, HCL(sim));
      // The same workspace, but installing from the network mirror instead of the script mirror writeHcl made.
      const rc = join(ws.root, 'network.rc');
      writeFileSync(rc, `${readFileSync(TERRAFORM_RC, 'utf8')}\nprovider_installation {\n  network_mirror {\n    url = "${served.url}"\n  }\n}\n`);
      const run = (args: string[]) => ws.terraform(args, { env: { PATH: ws.PATH, TF_CLI_CONFIG_FILE: rc, SSL_CERT_FILE: served.caFile } });
      const init = await run(['init', '-input=false', '-no-color']);
      expect(init.code).toBe(0);
      // The lock file records the hash of the executable installed (with its notices), not of the script package.
      const installed = providerBuilds().standalone(['linux_amd64'], () => undefined, 'mirror');
      expect(readFileSync(join(ws.stackDir, '.terraform.lock.hcl'), 'utf8')).toContain(packageHash1(installed.files.get('linux_amd64')!));
      const plan = await run(['plan', '-input=false', '-no-color']);
      expect(plan.output).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
      expect(plan.code).toBe(0);
    } finally {
      await served.close();
    }
  });

  test('a synthesized stack told to use it (HostingApi standaloneProvider) carries the executable and applies with no node on PATH', async () => {
    const ws = workspace();
    const mirror = join(ws.root, 'standalone-mirror');
    runMirrorCommand([mirror, ...STANDALONE], () => undefined, () => undefined);
    ws.synth((stack) => {
      const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl, standaloneProvider: mirror });
      new ServerFirewall(stack, 'fw', { api, serverId: IDS.vdsRunning, enabled: true, rulesets: [2] });
    });
    const run = (args: string[]) => ws.terraform(args, { env: { PATH: ws.PATH } });
    expect((await run(['init', '-input=false', '-no-color'])).code).toBe(0);
    const apply = await run(['apply', '-auto-approve', '-input=false', '-no-color']);
    expect(apply.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(apply.code).toBe(0);
    expect(sim.executed({ serverId: IDS.vdsRunning, kind: 'firewall' })).toHaveLength(1);
    expect((await run(['plan', '-input=false', '-no-color', '-detailed-exitcode'])).code).toBe(0);
  });
});

test('the darwin_arm64 signing hint names a file that exists in an unpacked mirror, and says what to do for a packed one', () => {
  const root = mkdtempSync(join(tmpdir(), 'codesign-hint-'));
  try {
    const version = providerVersion(readProviderBundle());
    let unpacked = '';
    runMirrorCommand([join(root, 'unpacked'), '--standalone', '--platform', 'darwin_arm64'], (text) => (unpacked += text), () => undefined);
    const file = join(root, 'unpacked', ...PROVIDER_SOURCE.split('/'), version, 'darwin_arm64', `terraform-provider-hosting_v${version}`);
    expect(unpacked).toContain(`#   codesign --sign - ${file}\n`);
    expect(existsSync(file)).toBe(true);
    let packed = '';
    runMirrorCommand([join(root, 'packed'), '--standalone', '--packed', '--platform', 'darwin_arm64'], (text) => (packed += text), () => undefined);
    expect(packed).toContain('this packed mirror holds it unsigned in a zip');
    expect(packed).not.toContain('codesign --sign');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
