import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type * as OpenPgp from 'openpgp' with { 'resolution-mode': 'import' };
import { NODE_RELEASE, nodeBinary, standaloneExecutables } from '../../src/cli/standalone-executable';
import { defaultCacheDir } from '../../src/cli/user-cache';
import { HostingApi, ServerFirewall } from '../../src/constructs';
import { PROVIDER_SOURCE } from '../../src/contract/provider-address';
import { executableName, readStandaloneProgram } from '../../src/contract/provider-mirror';
import { SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { LISTENING_LINE } from '../../src/simulator/listening-line';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, firewallHcl, TerraformWorkspace } from '../helpers/terraform';
import { describeWithWine, prepareWinePrefix, runUnderWine, startUnderWine, stopWine, wineShim, type WineProcess } from '../helpers/wine';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const openpgp = require('openpgp') as typeof OpenPgp;

/*
 * Windows users, under Debian's Wine: the windows_amd64 standalone executable as Terraform's provider
 * and as the command-line tool, and the script package a synthesized stack carries (its launcher
 * .exe and provider.js, run by Windows' node.exe). Terraform here is Linux's: it starts the Windows
 * provider through a shim (test/helpers/wine.ts). Wine's sockets refuse TCP keep-alive, so the
 * provider and adopt get HOSTING_API_TCP_KEEPALIVE=off, the documented setting. Runs in the package
 * step (test:windows), after `package:standalone` has built the executables into the shared cache.
 */

const WINDOWS = 'windows_amd64';
const cache = { cacheDir: defaultCacheDir(), log: () => undefined };
const WINDOWS_ENV = { HOSTING_API_TOKEN: SENTINEL_TOKEN, HOSTING_API_TCP_KEEPALIVE: 'off' };

/** Replaces the mirror's linux_amd64 package with a shim that runs the `windows_amd64` one's executable under Wine. */
function shimLinuxPackage(versionDir: string, winePath?: string): void {
  const version = versionDir.split('/').pop()!;
  const linux = join(versionDir, 'linux_amd64');
  rmSync(linux, { recursive: true, force: true });
  mkdirSync(linux);
  writeFileSync(join(linux, executableName(version, 'linux_amd64')), wineShim(join(versionDir, WINDOWS, executableName(version, WINDOWS)), winePath));
  chmodSync(join(linux, executableName(version, 'linux_amd64')), 0o755);
}

/** A folder below `root` holding Windows' node.exe (the release the standalone build pinned), as a Windows PATH entry. */
function windowsNodeOnPath(root: string): string {
  const dir = join(root, 'windows-node');
  mkdirSync(dir);
  symlinkSync(resolve(nodeBinary(WINDOWS, cache)), join(dir, 'node.exe'));
  return `Z:${dir.replace(/\//g, '\\')}`;
}

/** The script package's Windows launcher in `<root>/package`, beside a provider.js of `providerJs`; returns the launcher. */
function scriptPackageIn(root: string, providerJs: string): string {
  const pkg = join(root, 'package');
  mkdirSync(pkg);
  const launcher = join(pkg, executableName('1.4.0', WINDOWS));
  writeFileSync(launcher, readFileSync(join(__dirname, '..', '..', 'windows-launcher', `${WINDOWS}.exe`)));
  writeFileSync(join(pkg, 'provider.js'), providerJs);
  return launcher;
}

/** init, validate, plan, apply and a clean plan: the provider's whole life in one configuration. */
async function applyAndPlanClean(ws: TerraformWorkspace, env: Record<string, string> = {}): Promise<void> {
  const run = (...args: string[]) => ws.terraform([...args, '-no-color'], { env });
  const init = await run('init', '-input=false');
  expect(init.output).toContain(`Installing ${PROVIDER_SOURCE}`);
  expect(init.code).toBe(0);
  expect((await run('validate')).output).toContain('The configuration is valid.');
  const plan = await run('plan', '-input=false');
  expect(plan.output).toContain('Plan: 1 to add, 0 to change, 0 to destroy.');
  const apply = await run('apply', '-auto-approve', '-input=false');
  expect(apply.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  expect(apply.code).toBe(0);
  const clean = await run('plan', '-input=false', '-detailed-exitcode');
  expect(clean.output).toContain('No changes.');
  expect(clean.code).toBe(0);
}

describeWithWine('Windows users, under Wine', () => {
  let exe: string;
  let sim: RunningSimulator;
  const workspaces: TerraformWorkspace[] = [];
  const running: WineProcess[] = [];
  const workspace = () => {
    const ws = new TerraformWorkspace(WINDOWS_ENV);
    workspaces.push(ws);
    return ws;
  };

  beforeAll(async () => {
    prepareWinePrefix();
    sim = await simulatorWithSentinel();
    const ws = workspace();
    exe = join(ws.root, `${executableName('1', WINDOWS)}`);
    writeFileSync(exe, standaloneExecutables(readStandaloneProgram(), [WINDOWS], cache).get(WINDOWS)!, { mode: 0o755 });
  }, 300_000);
  afterAll(async () => {
    running.forEach((process) => process.stop());
    await sim?.close();
    workspaces.forEach((ws) => ws.dispose());
    stopWine();
  });

  test('the standalone executable, run by hand, is the command-line tool of win32', async () => {
    const version = await runUnderWine(exe, ['--version']);
    expect(version.stdout).toMatch(new RegExp(`; the standalone provider executable for win32/x64, Node ${NODE_RELEASE} inside\\n$`));
    expect(version.code).toBe(0);
  });

  test('the script package\'s launcher runs node.exe from PATH on the provider.js beside it, with its arguments and exit code; without Node it says what to do', async () => {
    const ws = workspace();
    const launcher = scriptPackageIn(ws.root, 'console.log(JSON.stringify([process.argv.slice(2), process.env.TF_PLUGIN_MAGIC_COOKIE])); process.exit(7);\n');
    const noNode = await runUnderWine(launcher, []);
    expect(noNode.stderr).toContain('node.exe is not in any absolute folder on PATH (relative entries are skipped). This provider package runs provider.js with Node (20 or newer)');
    expect(noNode.stderr).toContain('standaloneProvider prop (standalone_provider in Python) in a stack, or the release\'s windows_amd64 executable');
    expect(noNode.code).toBe(1);
    const run = await runUnderWine(launcher, ['one', 'two words'], { env: { WINEPATH: windowsNodeOnPath(ws.root), TF_PLUGIN_MAGIC_COOKIE: 'cookie' } });
    expect(run.stdout).toBe('[["one","two words"],"cookie"]\n');
    expect(run.code).toBe(7);
  });

  // Issue 41, point 5: Windows resolves a relative PATH entry against the working folder, Terraform's
  // stack folder, where a planted node.exe would run with the token in its environment.
  test('the launcher skips relative PATH entries (a node.exe in the working folder never runs) and unquotes quoted ones', async () => {
    const ws = workspace();
    const launcher = scriptPackageIn(ws.root, 'console.log("provider.js ran"); process.exit(0);\n');
    const onPath = windowsNodeOnPath(ws.root);
    const planted = await runUnderWine(launcher, [], { cwd: ws.root, env: { WINEPATH: '.;windows-node' } });
    expect(planted.stderr).toContain('node.exe is not in any absolute folder on PATH (relative entries are skipped)');
    expect(planted.code).toBe(1);
    const quoted = await runUnderWine(launcher, [], { env: { WINEPATH: `"${onPath}"` } });
    expect({ stdout: quoted.stdout, code: quoted.code }).toEqual({ stdout: 'provider.js ran\n', code: 0 });
  });

  describeWithTerraform('Terraform starting the Windows provider', () => {
    test('the standalone executable from a mirror it wrote of itself: init, validate, plan, apply and a clean plan', async () => {
      const ws = workspace();
      const env: Record<string, string> = {};
      ws.writeHcl(env, firewallHcl(sim.baseUrl), ['--standalone', '--platform', WINDOWS]);
      const [version] = readdirSync(join(ws.root, 'mirror', ...PROVIDER_SOURCE.split('/')));
      const versionDir = join(ws.root, 'mirror', ...PROVIDER_SOURCE.split('/'), version);
      // The executable writes a mirror of itself, printing the CLI configuration in Windows paths.
      const written = await runUnderWine(exe, ['provider', 'mirror', join(ws.root, 'by-itself')]);
      expect(written.stdout).toContain(`path    = "Z:${join(ws.root, 'by-itself').replace(/\//g, '\\\\')}"`);
      expect(written.code).toBe(0);
      // A development build's version is its own bytes' (a release's is the package's).
      const itsVersion = /provider (\S+) \(/.exec(written.stdout)![1];
      const itself = readFileSync(join(ws.root, 'by-itself', ...PROVIDER_SOURCE.split('/'), itsVersion, WINDOWS, executableName(itsVersion, WINDOWS)));
      expect(itself.equals(readFileSync(join(versionDir, WINDOWS, executableName(version, WINDOWS))))).toBe(true);
      shimLinuxPackage(versionDir);
      await applyAndPlanClean(ws, env);
      expect(sim.state.server(IDS.vpsRunning).firewall).toEqual({ enabled: true, rulesets: [1] });
    }, 600_000);

    test('a synthesized stack, its script package started by the launcher .exe with Windows\' node.exe: init, validate, plan, apply and a clean plan', async () => {
      const ws = workspace();
      ws.synth((stack) => {
        const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl });
        new ServerFirewall(stack, 'fw', { api, serverId: IDS.vdsRunning, enabled: true, rulesets: [2] });
      });
      const plugins = join(ws.stackDir, 'terraform.d', 'plugins', ...PROVIDER_SOURCE.split('/'));
      const [version] = readdirSync(plugins);
      expect(readdirSync(join(plugins, version, WINDOWS)).sort()).toEqual(['THIRD_PARTY_NOTICES.txt', 'provider.js', executableName(version, WINDOWS)]);
      shimLinuxPackage(join(plugins, version), windowsNodeOnPath(ws.root));
      // The lock file holds the linux_amd64 package's hash, which the shim replaced.
      rmSync(join(ws.stackDir, '.terraform.lock.hcl'));
      await applyAndPlanClean(ws);
      expect(sim.state.server(IDS.vdsRunning).firewall).toEqual({ enabled: true, rulesets: [2] });
    }, 600_000);
  });

  test('the executable writes itself as a signed registry folder, the zip holding exactly this .exe and its notices', async () => {
    const ws = workspace();
    const { privateKey } = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name: 'hosting releases' }], format: 'armored' });
    writeFileSync(join(ws.root, 'release-key.asc'), privateKey);
    const written = await runUnderWine(exe, ['provider', 'registry', 'registry', '--host', 'registry.example.com', '--namespace', 'platform', '--signing-key', 'release-key.asc'], { cwd: ws.root });
    expect(written.stdout).toContain(`no Node needed; ${WINDOWS}) to the registry in`);
    expect(written.code).toBe(0);
    const version = /provider (\S+) \(/.exec(written.stdout)![1];
    const zip = join(ws.root, 'registry', 'releases', 'platform', 'hosting', version, `terraform-provider-hosting_${version}_${WINDOWS}.zip`);
    const entries = spawnSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(entries).toEqual([executableName(version, WINDOWS), 'THIRD_PARTY_NOTICES.txt']);
    const inside = spawnSync('unzip', ['-p', zip, executableName(version, WINDOWS)], { maxBuffer: 512 * 1024 * 1024 }).stdout;
    expect(inside.equals(readFileSync(exe))).toBe(true);
  });

  test('the simulator and adopt run from the executable', async () => {
    const simulator = startUnderWine(exe, ['simulator', '--port', '0']);
    running.push(simulator);
    const deadline = Date.now() + 120_000;
    while (!simulator.output().includes('Press Ctrl-C to stop.') && Date.now() < deadline) await new Promise((done) => setTimeout(done, 200));
    const printed = simulator.output();
    const baseUrl = printed.split(LISTENING_LINE)[1].split('\n')[0].trim();
    const token = /^ {2}full +(\S+)$/m.exec(printed)![1];
    const servers = await fetch(`${baseUrl}/servers`, { headers: { authorization: `Bearer ${token}` } });
    expect(servers.status).toBe(200);

    const ws = workspace();
    const adopt = await runUnderWine(exe, ['adopt', '--language', 'hcl', '--out', 'main.tf'], {
      cwd: ws.root, env: { HOSTING_API_URL: baseUrl, HOSTING_API_TOKEN: token, HOSTING_API_TCP_KEEPALIVE: 'off' },
    });
    expect(adopt.stdout + adopt.stderr).toMatch(/\d+ resources to import, written to main\.tf/);
    expect(adopt.code).toBe(0);
    expect(readFileSync(join(ws.root, 'main.tf'), 'utf8')).toContain('resource "hosting_server_firewall"');
  }, 300_000);
});
