import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { cdktfCli } from '../helpers/cdktf-cli';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TERRAFORM_RC } from '../helpers/terraform';

const root = join(__dirname, '..', '..');
/** For commands that talk to the in-process simulator: spawnSync would block the event loop it answers on. */
const runAsync = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  new Promise<{ code: number | null; stdout: string; output: string }>((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: TERRAFORM_RC, ...env } });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      output += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d;
    });
    child.on('close', (code) => resolve({ code, stdout, output }));
  });

const versionOf = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * What a user does: pack the library (a fresh clone builds it in `prepack`), install the tarball
 * into their own project with its own package.json and a strict tsconfig, type-check with plain
 * `tsc`, synthesize, and run `terraform init` and `plan` on the output. Installs come from the npm
 * cache that `npm ci` filled, so the test needs no network.
 */
describeWithTerraform('a user project installs the packed library', () => {
  const work = mkdtempSync(join(tmpdir(), 'cdktf-server-hosting-consumer-'));
  const project = join(work, 'my-stack');
  const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) => {
    const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_CLI_CONFIG_FILE: TERRAFORM_RC, ...env } });
    return { code: res.status, stdout: res.stdout, output: `${res.stdout}${res.stderr}` };
  };
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('npm pack makes a complete package', () => {
    const packed = run('npm', ['pack', '--pack-destination', work, '--json'], root);
    expect(packed.code).toBe(0);
    const json = packed.stdout.slice(packed.stdout.search(/^\[/m));
    const files = (JSON.parse(json)[0].files as { path: string }[]).map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['.jsii', 'lib/index.js', 'lib/index.d.ts', 'assets/handler/index.js', 'assets/provider/provider.js', 'bin/cdktf-server-hosting', 'assets/standalone/cli.js']));
    // No dependencies of its own: the programs are bundles.
    expect(files.filter((f) => f.startsWith('node_modules/'))).toEqual([]);
    expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);
  });

  test('installs into a fresh project, type-checks strictly, synthesizes, and plans with terraform; the simulator imports from its subpath', async () => {
    const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
    run('mkdir', ['-p', project], work);
    writeFileSync(join(project, 'package.json'), JSON.stringify({
      name: 'my-stack',
      private: true,
      dependencies: { 'cdktf': versionOf('cdktf'), 'constructs': versionOf('constructs'), 'cdktf-server-hosting': `file:${tarball}` },
      // zod for the types of the simulator subpath only, as the simulator guide says (it runs from the package's bundle).
      devDependencies: { 'typescript': versionOf('typescript'), '@types/node': versionOf('@types/node'), 'zod': versionOf('zod') },
    }, null, 2));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, noImplicitAny: true, esModuleInterop: true, outDir: 'out', types: ['node'] },
      include: ['main.ts', 'simulator.ts'],
    }, null, 2));
    writeFileSync(join(project, 'main.ts'), [
      "import { App, TerraformStack } from 'cdktf';",
      "import { HostingApi, IpSettings, Layer4Protection, Layer7Protection, PowerState, PowerStateValue, ServerFirewall } from 'cdktf-server-hosting';",
      "const app = new App({ outdir: 'cdktf.out' });",
      "const stack = new TerraformStack(app, 'web');",
      "const api = new HostingApi(stack, 'hosting', { baseUrl: process.env.SIMULATOR_URL });",
      "const fw = new ServerFirewall(stack, 'fw', { api, serverId: 'vps_web_1', enabled: true, rulesets: [1] });",
      "new IpSettings(stack, 'ip', { api, serverId: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', ip: '203.0.113.10', rdns: 'web.example.com',",
      '  protection: { layer4: Layer4Protection.PERMANENT, layer7: Layer7Protection.ONLY } });',
      "new PowerState(stack, 'power', { api, serverId: 'vps_web_2', state: PowerStateValue.RUNNING, rebootTriggers: { release: '1' }, dependsOn: [fw] });",
      'app.synth();',
      '',
    ].join('\n'));
    // The simulator, from the package's documented subpath: a test double for the user's own tests.
    writeFileSync(join(project, 'simulator.ts'), [
      "import { startSimulator } from 'cdktf-server-hosting/simulator';",
      'void startSimulator().then(async (sim) => {',
      '  const servers = await (await fetch(`${sim.baseUrl}/servers`, { headers: { authorization: `Bearer ${sim.tokens.full}` } })).json();',
      '  console.log(JSON.stringify({ baseUrl: sim.baseUrl, servers: servers.data.length }));',
      '  await sim.close();',
      '});',
      '',
    ].join('\n'));

    const install = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
    expect(install).toMatchObject({ code: 0 });
    expect(run(join(project, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', '.'], project)).toMatchObject({ code: 0, output: '' });
    expect(run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], project).code).toBe(0);
    const simulated = JSON.parse((await runAsync('node', ['out/simulator.js'], project)).stdout) as { baseUrl: string; servers: number };
    expect(simulated.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    expect(simulated.servers).toBeGreaterThan(0);
    expect(run('node', ['out/main.js'], project, { SIMULATOR_URL: sim.baseUrl }).code).toBe(0);

    const stackDir = join(project, 'cdktf.out', 'stacks', 'web');
    // The provider ships inside the synthesized stack: init installs it offline, and it plans.
    const init = run('terraform', ['init', '-input=false', '-no-color'], stackDir);
    expect(init.output).toContain('Installing local.cdktf-server-hosting.invalid/cdktf-server-hosting/hosting');
    expect(init.code).toBe(0);
    // Plan-time checks read the server list: the plan runs against a simulator.
    const plan = await runAsync('terraform', ['plan', '-input=false', '-no-color'], stackDir, { HOSTING_API_TOKEN: sim.tokens.full });
    expect(plan.output).toContain('Plan: 3 to add, 0 to change, 0 to destroy.');
    expect(plan.code).toBe(0);
  });

  test('the testing guide\'s jest example runs in the project: the kit from the tarball starts an account; exactly one shutdown, nothing else written', () => {
    for (const file of ['typescript/web-stack.ts', 'typescript/web-stack.test.ts', 'typescript/jest.config.js', 'account.json']) copyFileSync(join(root, 'examples', 'testing', file), join(project, file.replace(/^typescript\//, '')));
    // The account file's $schema is the schema the installed package ships.
    expect(existsSync(join(project, JSON.parse(readFileSync(join(project, 'account.json'), 'utf8')).$schema))).toBe(true);
    // The stack's file type-checks strictly against the installed package. jest runs with the guide's
    // jest.config.js; jest and ts-jest are this repository's, as `npm install --save-dev` would add them.
    expect(run(join(project, 'node_modules', '.bin', 'tsc'), ['--noEmit', '--strict', '--target', 'ES2022', '--module', 'commonjs', '--esModuleInterop', '--types', 'node', 'web-stack.ts'], project)).toMatchObject({ code: 0, output: '' });
    for (const dev of ['ts-jest', '@types/jest']) {
      mkdirSync(dirname(join(project, 'node_modules', dev)), { recursive: true });
      if (!existsSync(join(project, 'node_modules', dev))) symlinkSync(join(root, 'node_modules', dev), join(project, 'node_modules', dev));
    }
    // A temporary folder of its own: what the example's tests leave there is a leak users would copy.
    // Jest's cache and the provider's shared pacing folder of this user (which it sweeps itself) aside.
    const temporary = mkdtempSync(join(work, 'tmp-'));
    const jest = run(process.execPath, [require.resolve('jest/bin/jest'), '--ci', '--coverage=false', '--config', 'jest.config.js'], project, { TMPDIR: temporary });
    expect(jest.output).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(jest.code).toBe(0);
    expect(readdirSync(temporary).filter((name) => !/^(jest_|cdktf-server-hosting-pacing-\d+$)/.test(name))).toEqual([]);
    // The project's own state is never a test's: no terraform.web.tfstate beside the stack's code.
    expect(readdirSync(project).filter((name) => name.includes('tfstate'))).toEqual([]);
  });

  test('the installed command, with no dependencies of its own: a signed registry folder gpg verifies, a standalone mirror (postject fetched on first use), the simulator and adopt', async () => {
    const cli = (args: string[], env: Record<string, string> = {}) => runAsync(join(project, 'node_modules', '.bin', 'cdktf-server-hosting'), args, project, env);
    expect(readdirSync(join(project, 'node_modules', 'cdktf-server-hosting')).includes('node_modules')).toBe(false);
    expect((await cli(['--version'])).stdout).toMatch(/^cdktf-server-hosting \S+/);

    const gnupg = mkdtempSync(join(tmpdir(), 'gnupg-'));
    const gpg = (args: string[]) => spawnSync('gpg', ['--batch', '--homedir', gnupg, ...args], { cwd: project, encoding: 'utf8' });
    try {
      expect(gpg(['--passphrase', '', '--quick-generate-key', 'Platform releases <platform@example.com>', 'ed25519', 'sign', 'never']).status).toBe(0);
      writeFileSync(join(project, 'release-key.asc'), gpg(['--armor', '--export-secret-keys', 'platform@example.com']).stdout);
      const registry = await cli(['provider', 'registry', './registry', '--host', 'registry.example.com', '--namespace', 'platform', '--signing-key', 'release-key.asc', '--platform', 'linux_amd64']);
      expect(registry.code).toBe(0);
      const version = /provider (\S+) \(/.exec(registry.output)![1];
      const sums = join(project, 'registry', 'releases', 'platform', 'hosting', version, `terraform-provider-hosting_${version}_SHA256SUMS`);
      const verify = gpg(['--verify', `${sums}.sig`, sums]);
      expect({ status: verify.status, said: verify.stderr }).toEqual({ status: 0, said: expect.stringContaining('Good signature from "Platform releases <platform@example.com>"') });
    } finally {
      rmSync(gnupg, { recursive: true, force: true });
    }

    const mirror = await cli(['provider', 'mirror', './mirror', '--standalone', '--platform', 'linux_amd64']);
    expect(mirror.code).toBe(0);
    const [executable] = readdirSync(join(project, 'mirror'), { recursive: true }).map(String).filter((f) => /linux_amd64\/terraform-provider-hosting_v/.test(f));
    expect(spawnSync(join(project, 'mirror', executable), ['--version'], { env: {}, encoding: 'utf8' }).stdout).toContain('the standalone provider executable for linux/x64');

    const adopt = await cli(['adopt', '--language', 'hcl', '--out', 'adopted.tf'], { HOSTING_API_URL: sim.baseUrl, HOSTING_API_TOKEN: sim.tokens.full });
    expect(adopt.code).toBe(0);
    expect(readFileSync(join(project, 'adopted.tf'), 'utf8')).toContain('resource "hosting_server_firewall"');
    const simulator = spawn(join(project, 'node_modules', '.bin', 'cdktf-server-hosting'), ['simulator', '--port', '0'], { cwd: project });
    try {
      const url = await new Promise<string>((resolve) => {
        let out = '';
        simulator.stdout.on('data', (d: Buffer) => {
          out += d;
          const found = /http:\/\/127\.0\.0\.1:\d+\/api\/v1/.exec(out);
          if (found) resolve(found[0]);
        });
      });
      expect((await fetch(`${url}/servers`)).status).toBe(401);
    } finally {
      simulator.kill('SIGTERM');
    }
  }, 600_000);

  // Issue 55 §3: the hint installed TypeScript 7, which ts-node cannot load, and `cdktf diff` failed.
  test('adopt --language typescript: its hint, followed word for word (the package from its tarball), makes a project cdktf plans: imports only', async () => {
    const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
    const folder = join(work, 'adopted');
    mkdirSync(folder);
    const env = { HOSTING_API_URL: sim.baseUrl, HOSTING_API_TOKEN: sim.tokens.full, CI: 'true', FORCE_COLOR: '0' };
    const adopt = await runAsync(join(project, 'node_modules', '.bin', 'cdktf-server-hosting'), ['adopt', '--language', 'typescript', '--out', 'main.ts'], folder, env);
    expect(adopt.code).toBe(0);
    const hint = /in its folder, (npm install [^;]+); write tsconfig\.json as (\{.+?\}\}); write cdktf\.json as (\{[^}]+\}); then plan with the cdktf CLI/.exec(adopt.output);
    expect(hint).not.toBeNull();
    // The one change: the package comes from its tarball, as it is not on the registry.
    const install = hint![1].replace(/(^| )cdktf-server-hosting(?= )/, `$1${tarball}`);
    expect(install).not.toBe(hint![1]);
    const installed = run('sh', ['-c', `${install} --no-audit --no-fund`], folder);
    expect({ code: installed.code, output: installed.code === 0 ? '' : installed.output }).toEqual({ code: 0, output: '' });
    writeFileSync(join(folder, 'tsconfig.json'), hint![2]);
    writeFileSync(join(folder, 'cdktf.json'), hint![3]);
    const plan = await runAsync(cdktfCli(), ['plan'], folder, env);
    expect({ code: plan.code, output: plan.output }).toEqual({ code: 0, output: expect.stringMatching(/Plan: \d+ to import, 0 to add, 0 to change, 0 to destroy\./) });
  }, 600_000);
});

/**
 * The CDK Terrain flavour, as its user gets it: `cdktn-server-hosting` (built from the same source by
 * scripts/flavour-cdktn.js, as `npx projen build` does) installed beside `cdktn` with no `cdktf`
 * anywhere in the tree; strict `tsc`, synth, and `terraform init`, `apply` and a clean plan against
 * the simulator. `cdktn` and `constructs` come from the registry (or npm's cache).
 */
describeWithTerraform('a CDK Terrain user project installs the cdktn flavour', () => {
  const work = mkdtempSync(join(tmpdir(), 'cdktn-server-hosting-consumer-'));
  const project = join(work, 'my-stack');
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await simulatorWithSentinel();
  });
  afterAll(async () => {
    await sim?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('no cdktf in the tree; strict tsc, synth, init, apply and a clean plan through the provider', async () => {
    const flavour = spawnSync('node', ['scripts/flavour-cdktn.js'], { cwd: root, encoding: 'utf8' });
    expect(flavour.status).toBe(0);
    const tarball = join(root, 'dist', 'js', `cdktn-server-hosting-${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}.tgz`);
    spawnSync('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({
      name: 'my-stack',
      private: true,
      dependencies: { 'cdktn': '0.24.0', 'constructs': '>=10.6.0 <10.8.0', 'cdktn-server-hosting': `file:${tarball}` },
      devDependencies: { 'typescript': versionOf('typescript'), '@types/node': versionOf('@types/node') },
    }, null, 2));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, noImplicitAny: true, esModuleInterop: true, outDir: 'out', types: ['node'] },
      include: ['main.ts'],
    }, null, 2));
    writeFileSync(join(project, 'main.ts'), [
      "import { App, TerraformOutput, TerraformStack } from 'cdktn';",
      "import { DataHostingServers, HostingApi, PowerState, PowerStateValue, ServerFirewall } from 'cdktn-server-hosting';",
      "const app = new App({ outdir: 'cdktf.out' });",
      "const stack = new TerraformStack(app, 'web');",
      "const api = new HostingApi(stack, 'hosting', { baseUrl: process.env.SIMULATOR_URL });",
      "const fw = new ServerFirewall(stack, 'fw', { api, serverId: 'vps_web_1', enabled: true, rulesets: [1] });",
      "new PowerState(stack, 'power', { api, serverId: 'vps_web_2', state: PowerStateValue.RUNNING, rebootTriggers: { release: '1' }, dependsOn: [fw] });",
      "new TerraformOutput(stack, 'ids', { value: new DataHostingServers(stack, 'all', { api }).ids });",
      'app.synth();',
      '',
    ].join('\n'));
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, encoding: 'utf8' });
    expect(install.status).toBe(0);
    expect(existsSync(join(project, 'node_modules', 'cdktf'))).toBe(false);
    expect(spawnSync('npm', ['ls', 'cdktf', '--all', '--parseable'], { cwd: project, encoding: 'utf8' }).stdout.trim()).toBe('');
    const tsc = spawnSync(join(project, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: project, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(spawnSync('node', ['out/main.js'], { cwd: project, encoding: 'utf8', env: { ...process.env, SIMULATOR_URL: sim.baseUrl } }).status).toBe(0);

    const stackDir = join(project, 'cdktf.out', 'stacks', 'web');
    const terraform = (args: string[]) => runAsync('terraform', [...args, '-input=false', '-no-color'], stackDir, { HOSTING_API_TOKEN: SENTINEL_TOKEN });
    const init = await terraform(['init']);
    expect(init.output).not.toContain('Incomplete lock file information');
    expect(init.code).toBe(0);
    const apply = await terraform(['apply', '-auto-approve']);
    expect(apply.output).toContain('Apply complete! Resources: 2 added, 0 changed, 0 destroyed.');
    expect(sim.executed().map((w) => `${w.serverId} ${w.detail}`)).toEqual(['vps_web_1 {"enabled":true,"rulesets":[1]}', 'vps_web_2 start']);
    expect((await terraform(['plan', '-detailed-exitcode'])).code).toBe(0);
  });
});
