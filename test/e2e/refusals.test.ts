import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace, type TerraformRun } from '../helpers/terraform';

/**
 * A refused token or an API nothing answers at, in every walk, with the real terraform: the token
 * is tested in ConfigureProvider (GET /connect), so each walk fails on one error per provider
 * configuration in its own words and runs no resource. Never "a bug in the provider".
 */
describeWithTerraform('a refused token or a silent API: one error per provider configuration in every walk, never a bug in the provider', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
  let mainTf: string;
  let header: string;
  const WRONG = { HOSTING_API_TOKEN: 'hsim_not_a_token_of_this_account' };

  const errorsOf = (run: TerraformRun) => run.output.split('\n').filter((line) => line.startsWith('Error: '));
  /** Three power states and a firewall, all created by the plan. */
  const fourCreates = [
    ...[IDS.vpsRunning, IDS.vdsRunning, IDS.dedicated].map((id, i) => `resource "hosting_power_state" "p${i}" {\n  server_id = "${id}"\n  state     = "running"\n}`),
    `resource "hosting_server_firewall" "fw" {\n  server_id       = "${IDS.vpsStopped}"\n  enabled         = true\n  rulesets        = [1]\n  expect_takeover = true\n}`,
  ].join('\n');
  const fiveInState = [
    ...[IDS.vpsRunning, IDS.vpsStopped, IDS.vdsRunning].map((id, i) => `resource "hosting_server_firewall" "f${i}" {\n  server_id       = "${id}"\n  enabled         = true\n  expect_takeover = true\n}`),
    `resource "hosting_ip_settings" "ip" {\n  server_id       = "${IDS.dedicated}"\n  ip              = "${IPS.secondary}"\n  protection      = { layer4 = "permanent", layer7 = "only" }\n  expect_takeover = true\n}`,
    `resource "hosting_power_state" "p" {\n  server_id = "${IDS.vpsRunning}"\n  state     = "running"\n}`,
  ].join('\n');
  const configure = (hcl: string, baseUrl = sim.baseUrl) => writeFileSync(mainTf, `${header.replace(sim.baseUrl, baseUrl)}\n${hcl}`);
  const noProviderBug = (run: TerraformRun) => {
    expect(run.output).not.toMatch(/bug in the provider|inconsistent (final )?plan|produced an (invalid|unexpected)/i);
    expect(run.output).not.toContain('hsim_not_a_token_of_this_account');
  };

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace(env);
    ({ mainTf, header } = await ws.initHclFor(env, sim.baseUrl));
  });
  afterEach(async () => {
    configure('');
    await ws.apply();
    rmSync(join(ws.stackDir, 'tfplan'), { force: true });
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  /** The one error of a refused token, as ConfigureProvider says it. */
  const TOKEN_REFUSED = /^Error: the token in HOSTING_API_TOKEN was refused by http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(401 unauthorized, request id [\w-]+\): /;

  test.each([
    ['on the command line', (plan: string) => ({ args: ['-input=false', '-no-color', plan], env: WRONG })],
    // Terraform's documented way to add arguments; they are on no process's command line.
    ['in TF_CLI_ARGS_apply', (plan: string) => ({ args: [], env: { ...WRONG, TF_CLI_ARGS_apply: `-input=false -no-color ${plan}` } })],
  ])('a saved plan of four creates applied with a rotated token, the plan %s: one error, nothing written', async (_where, applyOf) => {
    configure(fourCreates);
    expect((await ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan'])).code).toBe(0);
    const writes = sim.executed().length;
    const { args, env: applyEnv } = applyOf('tfplan');
    const run = await ws.terraform(['apply', ...args], { env: applyEnv });
    expect(run.code).toBe(1);
    noProviderBug(run);
    expect(errorsOf(run)).toEqual([expect.stringMatching(TOKEN_REFUSED)]);
    expect(sim.executed()).toHaveLength(writes);
  });

  test('a terraform apply of four creates whose token is revoked while its approval prompt waits: one error, nothing written', async () => {
    configure(fourCreates);
    const writes = sim.executed().length;
    const revoke = () => void sim.addFault({ effect: { type: 'error', status: 401, code: 'unauthorized' } });
    try {
      const run = await ws.terraform(['apply', '-no-color'], { approve: { meanwhile: revoke } });
      expect(run.code).toBe(1);
      noProviderBug(run);
      expect(errorsOf(run)).toEqual([expect.stringMatching(TOKEN_REFUSED)]);
      expect(sim.executed()).toHaveLength(writes);
    } finally {
      sim.clearFaults();
    }
  });

  test('a saved plan applied while the API answers nowhere: one error naming the API, nothing written', async () => {
    // The address from HOSTING_API_URL, so that the saved plan's provider block does not hold it.
    writeFileSync(mainTf, `${header.replace(/ *base_url = .*\n/, '')}\n${fourCreates}`);
    expect((await ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan'], { env: { HOSTING_API_URL: sim.baseUrl } })).code).toBe(0);
    const run = await ws.terraform(['apply', '-input=false', '-no-color', 'tfplan'], { env: { HOSTING_API_URL: 'http://127.0.0.1:9/api/v1' } });
    expect(run.code).toBe(1);
    noProviderBug(run);
    expect(errorsOf(run)).toEqual([expect.stringMatching(/^Error: the API at http:\/\/127\.0\.0\.1:9\/api\/v1 could not be reached: /)]);
    expect(run.output).toContain('check HOSTING_API_URL and the network');
  }, 120_000);

  test('a refusal met by one request mid-apply is that resource\'s error alone: the other server is rebooted', async () => {
    const reboots = (triggers: string) => [IDS.vpsRunning, IDS.vdsRunning].map((id, i) =>
      `resource "hosting_power_state" "r${i}" {\n  server_id       = "${id}"\n  state           = "running"\n  reboot_triggers = { v = "${triggers}" }\n  expect_takeover = true\n}`).join('\n');
    configure(reboots('1'));
    expect((await ws.apply()).output).toContain('Apply complete!');
    const before = sim.executed().length;
    // The plan's read of the first server passes; the apply's is refused, once.
    sim.addFault({ endpoint: 'GET /servers/{serverId}', serverId: IDS.vpsRunning, skip: 1, times: 1, effect: { type: 'error', status: 401, code: 'unauthorized' } });
    try {
      configure(reboots('2'));
      const run = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color', '-parallelism=1']);
      expect(run.code).toBe(1);
      noProviderBug(run);
      expect(errorsOf(run)).toEqual([expect.stringContaining(IDS.vpsRunning)]);
      expect(sim.executed().slice(before).filter((w) => w.serverId === IDS.vdsRunning)).toHaveLength(1);
    } finally {
      sim.clearFaults();
    }
  });

  test('five resources in state, the configuration unchanged, a refused token: one error, and the failed plan shows no change', async () => {
    configure(fiveInState);
    const setUp = await ws.apply();
    expect(setUp.output).toContain('Apply complete!');
    const before = sim.requests.length;
    const run = await ws.terraform(['plan', '-input=false', '-no-color', '-json'], { env: WRONG });
    expect(run.code).toBe(1);
    noProviderBug(run);
    const messages = run.output.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { 'type': string; '@level': string; 'diagnostic'?: { summary: string } });
    expect(messages.filter((m) => m['@level'] === 'error').map((m) => m.diagnostic!.summary)).toEqual([expect.stringMatching(/^the token in HOSTING_API_TOKEN was refused by /)]);
    expect(messages.filter((m) => m.type === 'planned_change' || m.type === 'resource_drift')).toEqual([]);
    // The token is tested once, in ConfigureProvider; no resource is read.
    expect(sim.requests.length - before).toBe(1);
  });

  test('twenty firewalls and a wrong token through terraform apply: one error, one request', async () => {
    configure(Array.from({ length: 20 }, (_, i) => `resource "hosting_server_firewall" "f${i}" {\n  server_id       = "${[IDS.vpsRunning, IDS.vpsStopped, IDS.vdsRunning][i % 3]}"\n  enabled         = true\n  expect_takeover = true\n}`).join('\n'));
    const setUp = await ws.apply();
    expect(setUp.output).toContain('Apply complete!');
    const before = sim.requests.length;
    const run = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { env: WRONG });
    expect(run.code).toBe(1);
    noProviderBug(run);
    expect(errorsOf(run)).toHaveLength(1);
    expect(sim.requests.length - before).toBe(1);
  });

  test('terraform test, a first run block of four creates and a wrong token: one error, one request', async () => {
    configure(fourCreates);
    const tests = join(ws.stackDir, 'tests');
    mkdirSync(tests, { recursive: true });
    writeFileSync(join(tests, 'deploy.tftest.hcl'), 'run "deploy" {}\n');
    try {
      const before = sim.requests.length;
      const run = await ws.terraform(['test', '-no-color'], { env: WRONG });
      expect(run.code).toBe(1);
      noProviderBug(run);
      expect(run.output.match(/Error: /g)).toHaveLength(1);
      expect(run.output).toContain('Error: the token in HOSTING_API_TOKEN was refused by ');
      expect(sim.requests.length - before).toBe(1);
    } finally {
      rmSync(tests, { recursive: true, force: true });
    }
  });

  test('six creates under two provider configurations and a wrong token through terraform apply: one error for each, two requests', async () => {
    const second = ['vpsRunning', 'vdsRunning'].map((server, i) => `resource "hosting_server_firewall" "second${i}" {
  provider        = hosting.second
  server_id       = "${IDS[server as 'vpsRunning']}"
  enabled         = true
  expect_takeover = true
}`);
    configure(`provider "hosting" {\n  alias               = "second"\n  base_url            = "${sim.baseUrl}"\n  allow_insecure_http = true\n}\n${fourCreates}\n${second.join('\n')}`);
    const before = sim.requests.length;
    const run = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { env: WRONG });
    expect(run.code).toBe(1);
    noProviderBug(run);
    // Each configuration's ConfigureProvider says it once.
    expect(errorsOf(run)).toEqual([expect.stringMatching(/^Error: the token in HOSTING_API_TOKEN was refused by /), expect.stringMatching(/^Error: the token in HOSTING_API_TOKEN was refused by /)]);
    expect(sim.requests.length - before).toBe(2);
  });

  test('plan, apply and destroy leave no file of the provider\'s in TMPDIR but the shared pacing budget', async () => {
    const tmp = join(ws.root, 'tmp-clean');
    mkdirSync(tmp, { recursive: true });
    configure(fourCreates);
    for (const args of [['plan', '-input=false', '-no-color'], ['apply', '-auto-approve', '-input=false', '-no-color'], ['destroy', '-auto-approve', '-input=false', '-no-color']]) {
      expect((await ws.terraform(args, { env: { TMPDIR: tmp } })).code).toBe(0);
    }
    expect(readdirSync(tmp).filter((name) => !name.startsWith('cdktf-server-hosting-pacing-'))).toEqual([]);
  });

  test('the same output where no process can read /proc: a plan of takeovers, a wrong token, a saved plan with a rotated token', async () => {
    // terraform, and so its provider, in a mount namespace whose /proc is an empty tmpfs (root only, as CI runs).
    const bin = join(ws.root, 'no-proc-bin');
    mkdirSync(bin, { recursive: true });
    const terraformPath = execFileSync('sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'terraform'), `#!/bin/sh\nexec unshare --mount --fork sh -c 'mount -t tmpfs none /proc && exec "$0" "$@"' ${terraformPath} "$@"\n`, { mode: 0o755 });
    const noProc = { PATH: `${bin}:${process.env.PATH}` };
    const probe = await ws.terraform(['version'], { env: noProc });
    expect(probe.code).toBe(0);
    const same = (text: string) => text.replace(/req_[0-9a-f]+/g, 'req_…').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:…').replace(/after \d+s/g, 'after …s');
    const runBoth = async (steps: (extra: Record<string, string>) => Promise<string>) => {
      const outputs = [];
      for (const walkEnv of [{}, noProc]) {
        outputs.push(same(await steps(walkEnv)));
        configure('');
        await ws.apply();
      }
      return outputs;
    };
    const [planned, plannedNoProc] = await runBoth(async (extra) => {
      // A firewall that differs from the configuration: the create takes it over.
      sim.drift(IDS.vpsStopped, { firewall: { enabled: false, rulesets: [] } });
      configure(fourCreates.replace('  expect_takeover = true\n', ''));
      return (await ws.terraform(['plan', '-input=false', '-no-color'], { env: extra })).output;
    });
    expect(planned).toContain('Warning: Creating this resource');
    expect(plannedNoProc).toBe(planned);
    const [refused, refusedNoProc] = await runBoth(async (extra) => {
      configure(fourCreates);
      return (await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { env: { ...extra, ...WRONG } })).output;
    });
    expect(refused).toContain('Error: the token in HOSTING_API_TOKEN was refused by ');
    expect(refusedNoProc).toBe(refused);
    const [rotated, rotatedNoProc] = await runBoth(async (extra) => {
      configure(fourCreates);
      expect((await ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan'], { env: extra })).code).toBe(0);
      return (await ws.terraform(['apply', '-input=false', '-no-color', 'tfplan'], { env: { ...extra, ...WRONG } })).output;
    });
    expect(errorsOf({ code: 1, output: rotated })).toHaveLength(1);
    expect(rotatedNoProc).toBe(rotated);
  }, 120_000);

  test('four creates and a wrong token through terraform apply (a first deploy): one error, one request', async () => {
    configure(fourCreates);
    const before = sim.requests.length;
    const run = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { env: WRONG });
    expect(run.code).toBe(1);
    noProviderBug(run);
    expect(errorsOf(run)).toEqual([expect.stringMatching(/^Error: the token in HOSTING_API_TOKEN was refused by /)]);
    expect(sim.requests.length - before).toBe(1);
  });
});
