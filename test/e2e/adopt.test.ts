import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADOPT_INCOMPLETE, runAdoptCommand } from '../../src/cli/adopt-command';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { startHostileAccount, hostileTextEscaped, type HostileAccount } from '../helpers/hostile-account';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

const ROOT = join(__dirname, '..', '..');

/** Runs `adopt` in-process against the simulator (it serves on this event loop) and returns the program. */
async function adopt(sim: RunningSimulator, language: string, extra: string[] = []) {
  let program = '';
  const progress: string[] = [];
  const code = await runAdoptCommand(['--language', language, ...extra], {
    env: { HOSTING_API_URL: sim.baseUrl, HOSTING_API_TOKEN: SENTINEL_TOKEN },
    stdout: (text) => (program += text),
    stderr: (line) => progress.push(line),
  });
  return { program, progress, code };
}

const importOnly = /Plan: (\d+) to import, 0 to add, 0 to change, 0 to destroy\./;

/**
 * `adopt` against a seeded account (VPS, VDS, dedicated and shared servers) whose names and
 * descriptions other people wrote (helpers/hostile-account): the program it writes, in each language,
 * imports the account as it is and runs nothing it was handed. The first plan shows only imports, the
 * apply writes nothing (no template read a file into a value), the next plan is clean, and a second
 * run on an unchanged account writes the same file. The server whose read fails is left out and said.
 */
describeWithTerraform('adopt an existing account', () => {
  let account: HostileAccount;
  let sim: RunningSimulator;
  const workspaces: TerraformWorkspace[] = [];
  beforeAll(async () => {
    account = await startHostileAccount();
    sim = account.sim;
  });
  afterAll(async () => {
    expect(hostileTextEscaped(account)).toEqual({ ran: false, secretSent: false });
    await account?.close();
    workspaces.forEach((ws) => ws.dispose());
  });

  test('HCL: formatted, no token, one progress line per server; import only, nothing written, then a clean plan', async () => {
    const { program, progress, code } = await adopt(sim, 'hcl');
    expect(code).toBe(ADOPT_INCOMPLETE);
    expect(program).not.toContain(SENTINEL_TOKEN);
    expect((await adopt(sim, 'hcl')).program).toBe(program);
    expect(progress.filter((l) => /^\[\d+\/\d+\] /.test(l))).toHaveLength(9);
    expect(progress).toContainEqual(expect.stringMatching(/^ {2}skipped: .*not_found/));
    expect(program).toContain('resource "hosting_server_firewall" "web_1_firewall"');
    expect(program).toContain('resource "hosting_server_firewall" "web_1_firewall_2"');
    expect(program).toContain('resource "hosting_ip_settings" "metal_1_ip_203_0_113_10"');
    expect(program).toContain('rdns        = "mail_relay.example.com"');
    expect(program).toMatch(/# {3}vps_shared_5 \("partner-5\\u2028require.*\\r\\nimport os"\): shared with this account, read-only for it/);
    expect(program).toMatch(/# NOT ADOPTED, a read failed .*\n# {3}vps_fail_7 \("broken-7"\): /);
    expect(program).not.toContain('hosting_power_state" "new_4_power"');
    // The API's address is the environment's, as the token is: a file a team commits names neither.
    expect(program).toContain('provider "hosting" {}');
    expect(program).not.toContain(sim.baseUrl);
    expect(progress).toContain('the configuration installs the provider from local.cdktf-server-hosting.invalid/cdktf-server-hosting/hosting, the address `provider mirror` serves; installing from a registry, adopt with --source HOST/NAMESPACE/hosting');

    const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN, HOSTING_API_URL: sim.baseUrl };
    const ws = new TerraformWorkspace(env);
    workspaces.push(ws);
    ws.writeHcl(env, '');
    // adopt writes its own required_providers: keep the mirror's CLI configuration, not its block.
    writeFileSync(join(ws.stackDir, 'main.tf'), program);
    expect(spawnSync('terraform', ['fmt', '-check', '-diff', 'main.tf'], { cwd: ws.stackDir, encoding: 'utf8' }).stdout).toBe('');
    expect((await ws.init()).code).toBe(0);
    const plan = await ws.plan();
    expect(plan.output).toMatch(importOnly);
    const before = sim.executed().length;
    expect((await ws.apply()).code).toBe(0);
    expect(sim.executed()).toHaveLength(before);
    expect((await ws.plan()).code).toBe(0);
  });

  test('TypeScript: strict tsc accepts it; synthesized, it plans imports only and applies without a write', async () => {
    const { program } = await adopt(sim, 'typescript');
    expect(program).not.toContain(SENTINEL_TOKEN);
    expect(program).toContain('new ServerFirewall(this, "web_1_firewall", {');
    // Inside the repository, so the program imports the package by its name (the library must be built).
    expect(spawnSync('node', ['scripts/prepack.js'], { cwd: ROOT, encoding: 'utf8' }).status).toBe(0);
    mkdirSync(join(ROOT, '.e2e'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.e2e', 'adopt-'));
    try {
      writeFileSync(join(dir, 'main.ts'), program);
      const tsc = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['--noEmit', '--strict', '--target', 'ES2022', '--module', 'node16', '--moduleResolution', 'node16', '--skipLibCheck', 'main.ts'], { cwd: dir, encoding: 'utf8' });
      expect(tsc.stdout + tsc.stderr).toBe('');
      const ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN, HOSTING_API_URL: sim.baseUrl }, 'adopted');
      workspaces.push(ws);
      const synth = spawnSync(join(ROOT, 'node_modules', '.bin', 'ts-node'), ['--transpile-only', 'main.ts'], { cwd: dir, encoding: 'utf8', env: { ...process.env, CDKTF_OUTDIR: ws.root } });
      expect(synth.status).toBe(0);
      expect((await ws.init()).code).toBe(0);
      expect((await ws.plan()).output).toMatch(importOnly);
      const before = sim.executed().length;
      expect((await ws.apply()).code).toBe(0);
      expect(sim.executed()).toHaveLength(before);
      expect((await ws.plan()).code).toBe(0);
      expect(sim.state.server(IDS.dedicated).ipSettings.get(IPS.primary)?.description).toBe(account.description);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--out writes the file; --token-env-var names the variable in the program, never its value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adopt-out-'));
    try {
      // A folder that does not exist yet is made.
      const out = join(dir, 'infra', 'adopted', 'main.tf');
      let printed = '';
      await runAdoptCommand(['--language', 'hcl', '--out', out, '--token-env-var', 'STAGING_TOKEN'], {
        env: { HOSTING_API_URL: sim.baseUrl, STAGING_TOKEN: SENTINEL_TOKEN },
        stdout: (text) => (printed += text),
        stderr: () => undefined,
      });
      expect(printed).toBe('');
      const text = readFileSync(out, 'utf8');
      expect(text).toContain('token_env_var = "STAGING_TOKEN"');
      expect(text).not.toContain(SENTINEL_TOKEN);
      // A folder for the file is refused before any request.
      const before = sim.requests.length;
      const io = { env: { HOSTING_API_URL: sim.baseUrl, HOSTING_API_TOKEN: SENTINEL_TOKEN }, stdout: () => undefined, stderr: () => undefined };
      await expect(runAdoptCommand(['--language', 'hcl', '--out', dir], io)).rejects.toThrow(`--out ${dir} is a folder; name the file to write, e.g. --out ${join(dir, 'main.tf')}`);
      expect(sim.requests.length).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
