import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative } from 'node:path';
import type * as OpenPgp from 'openpgp' with { 'resolution-mode': 'import' };
import { NODE_RELEASE, standaloneExecutables } from '../../src/cli/standalone-executable';
import { defaultCacheDir } from '../../src/cli/user-cache';
import { executableName, readStandaloneProgram } from '../../src/contract/provider-mirror';
import { LISTENING_LINE } from '../../src/simulator/listening-line';
import { commandsIn } from '../helpers/printed-commands';
import { describeWithTerraform, pathWithTerraformOnly } from '../helpers/terraform';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const openpgp = require('openpgp') as typeof OpenPgp;

/*
 * An HCL team with terraform and the standalone executable, and nothing else: the executable is
 * their simulator, their adopt, and their provider (installed from a mirror it writes of itself).
 * Every command below runs with a PATH of those two files (the CI script adds the shell tools it
 * uses). Runs in the package step, after the executables are built into the shared cache.
 */

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'testing');
const EXECUTABLE = 'terraform-provider-hosting';

interface Run {
  readonly code: number;
  readonly output: string;
}

describeWithTerraform('an HCL team with terraform and the standalone executable alone on PATH', () => {
  let root: string;
  let bin: string;
  const simulators: ChildProcess[] = [];

  /** `command` with a PATH of terraform and the executable, in `cwd`. */
  const run = (command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}) => new Promise<Run>((resolve) => {
    const child = spawn(command, args, { cwd, env: { PATH: bin, HOME: root, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1', ...env } });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });

  /** `simulator …` from the executable, in the background: its printed URL and the rest of its first lines. */
  const startSimulator = (args: readonly string[]) => new Promise<{ baseUrl: string; printed: string }>((resolve, reject) => {
    const child = spawn(EXECUTABLE, ['simulator', '--port', '0', ...args], { env: { PATH: bin } });
    simulators.push(child);
    let printed = '';
    child.stdout.on('data', (d: Buffer) => {
      printed += d;
      if (printed.includes('Press Ctrl-C to stop.')) resolve({ baseUrl: printed.split(LISTENING_LINE)[1].split('\n')[0], printed });
    });
    child.on('exit', (code) => reject(new Error(`the simulator ended (exit ${code}): ${printed}`)));
  });

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'terraform-only-team-'));
    bin = pathWithTerraformOnly(root);
    const executables = standaloneExecutables(readStandaloneProgram(), ['linux_amd64'], { cacheDir: defaultCacheDir(), log: () => undefined });
    writeFileSync(join(bin, EXECUTABLE), executables.get('linux_amd64')!, { mode: 0o755 });
  });
  afterAll(() => {
    simulators.forEach((child) => child.kill());
    rmSync(root, { recursive: true, force: true });
  });

  test('the executable run by hand answers --version and --help, with no node on PATH', async () => {
    expect(spawnSync('node', ['--version'], { env: { PATH: bin } }).error).toMatchObject({ code: 'ENOENT' });
    const version = await run(EXECUTABLE, ['--version'], root);
    expect(version.output).toMatch(new RegExp(`^cdktf-server-hosting \\S+.*; the standalone provider executable for linux/x64, Node ${NODE_RELEASE} inside\\n$`));
    expect(version.code).toBe(0);
    const help = await run(EXECUTABLE, ['--help'], root);
    expect(help.output).toContain(`usage: ${EXECUTABLE} COMMAND [OPTIONS]`);
    for (const command of ['simulator start', 'adopt', 'provider mirror', 'provider registry']) expect(help.output).toMatch(new RegExp(`^  ${command} +[A-Z]`, 'm'));
    expect(help.output).toContain('Terraform runs this file as its provider (hosting); run by hand, it is the');
    // Kept on PATH through a link (issue 70): every line names the command as typed, which runs.
    symlinkSync(EXECUTABLE, join(bin, 'hosting'));
    const linked = await run('hosting', ['simulator', 'start', '--help'], root);
    expect(linked.output).toMatch(/^usage: hosting simulator start \[--port N\]/);
    expect(linked.output).toContain('\n  hosting simulator start --port 8787\n');
    expect(linked.output).not.toContain(EXECUTABLE);
    // Issue 75 §2: the commands it prints run pasted into a shell, typed by a long path (as Terraform
    // installs it) or by a link's name on PATH: on lines of their own, never wrapped, never quoted.
    const installed = join(root, '.terraform', 'providers', 'local.invalid', 'x', 'hosting', '1.10.0', 'linux_amd64', 'terraform-provider-hosting_v1.10.0');
    mkdirSync(dirname(installed), { recursive: true });
    copyFileSync(join(bin, EXECUTABLE), installed);
    chmodSync(installed, 0o755);
    const env = { CDKTF_SERVER_HOSTING_STATE_DIR: mkdtempSync(join(root, 'state-')) };
    for (const typed of [relative(root, installed), 'hosting']) {
      const said = await run('/bin/bash', ['-c', `${typed} --help; ${typed} simulater; ${typed} simulator start --port 0 --still`], root, env);
      const commands = commandsIn(said.output);
      expect(commands).toEqual([
        `${typed === 'hosting' ? typed : installed} help COMMAND`, expect.stringMatching(/ help$/), expect.stringMatching(/^export HOSTING_API_URL=/),
        expect.stringMatching(/ simulator status --port \d+$/), expect.stringMatching(/ simulator stop --port \d+$/),
      ]);
      for (const command of commands) expect(await run('/bin/bash', ['-c', command.replace('COMMAND', 'adopt')], root, env)).toMatchObject({ code: 0 });
    }
    const other = await run(EXECUTABLE, ['provider', 'mirror', join(root, 'other'), '--platform', 'darwin_arm64'], root);
    expect(other.output).toContain('--platform darwin_arm64: this executable is the linux_amd64 provider and writes only itself');
    expect(other.output).toContain('provider mirror <directory> --standalone", which builds every platform');
    expect(other.code).toBe(1);
    const typo = await run(EXECUTABLE, ['provider', 'mirror', '--packd'], root);
    expect(typo.output).toContain('unknown option --packd; did you mean --packed?');
    // A usage error, as git and terraform say it: exit 2.
    expect(typo.code).toBe(2);
  });

  test('writes itself as a signed registry folder: its own platform, the zip holding exactly this executable and its notices', async () => {
    const { privateKey } = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name: 'hosting releases' }], format: 'armored' });
    writeFileSync(join(root, 'release-key.asc'), privateKey);
    const registry = join(root, 'registry');
    const written = await run(EXECUTABLE, ['provider', 'registry', registry, '--host', 'registry.example.com', '--namespace', 'platform', '--signing-key', 'release-key.asc'], root);
    expect(written.output).toMatch(/^Wrote the hosting provider (\S+) \(standalone executables with Node 22\.23\.2, no Node needed; linux_amd64\) to the registry in /);
    expect(written.code).toBe(0);
    const version = /provider (\S+) \(/.exec(written.output)![1];
    const releases = join(registry, 'releases', 'platform', 'hosting', version);
    const zip = join(releases, `terraform-provider-hosting_${version}_linux_amd64.zip`);
    const inside = spawnSync('unzip', ['-p', zip, executableName(version, 'linux_amd64')], { maxBuffer: 512 * 1024 * 1024 }).stdout;
    expect(inside.equals(readFileSync(join(bin, EXECUTABLE)))).toBe(true);
    // The notices it carries, Node's licence among them (issue 41, point 3).
    const notices = spawnSync('unzip', ['-p', zip, 'THIRD_PARTY_NOTICES.txt'], { encoding: 'utf8' }).stdout;
    expect(notices).toMatch(/^Third-party software in cdktf-server-hosting [\s\S]*\nopenpgp 6\.3\.2\n[\s\S]*\nNode\.js 22\.23\.2\n/);
    const sums = readFileSync(join(releases, `terraform-provider-hosting_${version}_SHA256SUMS`), 'utf8');
    expect(sums.trim().split('\n').map((line) => line.split('  ')[1])).toEqual([`terraform-provider-hosting_${version}_linux_amd64.zip`, `terraform-provider-hosting_${version}_manifest.json`]);
    // Another platform is the executable of that platform's job: the refusal names the verb run here.
    const other = await run(EXECUTABLE, ['provider', 'registry', registry, '--host=registry.example.com', '--namespace', 'platform', '--signing-key=release-key.asc', '--platform', 'darwin_arm64'], root);
    expect(other.output).toContain('provider registry <directory> --host HOST --namespace NAMESPACE --signing-key FILE", which builds every platform');
    expect(other.code).toBe(1);
  });

  test('adopts the simulated account: the first plan only imports, the apply writes nothing, the next plan is clean', async () => {
    const { baseUrl, printed } = await startSimulator([]);
    const token = /^ {2}full +(\S+)$/m.exec(printed)![1];
    const dir = join(root, 'adopted');
    mkdirSync(dir);
    const env = { HOSTING_API_URL: baseUrl, HOSTING_API_TOKEN: token };
    const adopt = await run(EXECUTABLE, ['adopt', '--language', 'hcl', '--out', 'main.tf'], dir, env);
    expect(adopt.output).toContain('resources to import, written to main.tf');
    expect(adopt.code).toBe(0);
    const imports = Number(/(\d+) resources to import/.exec(adopt.output)![1]);
    // A CDK Terrain team adopts from the same executable: its program imports cdktn and this library's cdktn flavour.
    const terrain = await run(EXECUTABLE, ['adopt', '--language', 'python', '--cdk', 'cdktn'], dir, env);
    expect(terrain.output).toMatch(/^from cdktn import App, TerraformStack$[^]*^from cdktn_server_hosting import \($/m);
    expect(terrain.code).toBe(0);

    const mirror = await run(EXECUTABLE, ['provider', 'mirror', join(root, 'mirror')], dir);
    expect(mirror.output).toContain('(standalone executables with Node 22.23.2, no Node needed; linux_amd64)');
    expect(mirror.code).toBe(0);
    const rc = join(root, 'terraform.rc');
    writeFileSync(rc, /^provider_installation \{\n[\s\S]*?^\}$/m.exec(mirror.output)![0]);
    const tf = (...args: string[]) => run('terraform', [...args, '-input=false', '-no-color'], dir, { ...env, TF_CLI_CONFIG_FILE: rc });

    expect((await tf('init')).code).toBe(0);
    // The provider docs' line that finds the executable `terraform init` installed (issue 70): it runs by hand.
    const find = /```shell\n(find -L \.terraform\/providers [^\n]*)\n```/.exec(readFileSync(join(__dirname, '..', '..', 'docs', 'index.md'), 'utf8'))![1];
    // Run with the machine's PATH: this suite's PATH holds terraform and the executable alone.
    const found = spawnSync('sh', ['-c', find], { cwd: dir, encoding: 'utf8' }).stdout.trim().split('\n');
    expect(found).toEqual([expect.stringMatching(/^\.terraform\/providers\/.*\/linux_amd64\/terraform-provider-hosting_v/)]);
    expect((await run(join(dir, found[0]), ['--version'], dir)).output).toContain('the standalone provider executable for linux/x64');
    const plan = await tf('plan');
    expect(plan.output).toContain(`Plan: ${imports} to import, 0 to add, 0 to change, 0 to destroy.`);
    const apply = await tf('apply', '-auto-approve');
    expect(apply.output).toContain(`Apply complete! Resources: ${imports} imported, 0 added, 0 changed, 0 destroyed.`);
    expect(await (await fetch(`${new URL(baseUrl).origin}/__simulator/executed`)).json()).toEqual([]);
    const clean = await tf('plan', '-detailed-exitcode');
    expect(clean.output).toContain('No changes.');
    expect(clean.code).toBe(0);
  });

  test('the testing guide\'s Terraform-only CI script passes: terraform test, drift, a fault, a narrower token', async () => {
    const dir = join(root, 'testing');
    cpSync(EXAMPLES, dir, { recursive: true });
    const tools = join(root, 'shell-tools');
    mkdirSync(tools);
    const found = (name: string) => (process.env.PATH ?? '').split(delimiter).map((d) => join(d, name)).find((file) => spawnSync('test', ['-x', file]).status === 0)!;
    for (const name of ['bash', 'curl', 'sed', 'grep', 'mktemp', 'sleep', 'kill', 'test', 'cat']) {
      const file = found(name);
      if (file) symlinkSync(realpathSync(file), join(tools, name));
    }
    const states = join(root, 'simulator-states');
    const script = await run('bash', ['terraform-only-ci.sh', '../account.json'], join(dir, 'hcl'), { PATH: `${bin}${delimiter}${tools}`, CDKTF_SERVER_HOSTING_STATE_DIR: states });
    // eslint-disable-next-line no-control-regex -- the script keeps terraform's colours, as a CI log shows them
    const output = script.output.replace(/\x1b\[[0-9;]*m/g, '');
    expect(output).toContain('Success! 2 passed, 0 failed.');
    expect(output).toMatch(/~ enabled\s+= false -> true/);
    expect(output).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
    expect(output).toContain('firewall vps_web_2: reading failed: this request needs the scope network:read');
    expect(script.code).toBe(0);
    expect(output).toMatch(/^stopped the simulator at http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(pid \d+\); its output was removed \(--keep-log keeps it\)$/m);
    expect(readdirSync(join(states, 'simulators')).filter((name) => name.endsWith('.json'))).toEqual([]);
    expect(readFileSync(join(dir, 'hcl', 'terraform.tfstate'), 'utf8')).not.toContain('hsim_');
  });
});
