import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { processesPlanning } from '../helpers/run-notes-files';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace, type TerraformRun } from '../helpers/terraform';

/**
 * A run-wide refusal (a refused token, an API nothing answers at) in every walk, with the real
 * terraform: Terraform checks each answer of ours, so no walk may answer with anything but a real
 * plan or an error in the refusal's own words (issue 59 §1). Never "a bug in the provider".
 */
describeWithTerraform('a refused token or a silent API: one error at plan, each resource fails at apply, never a bug in the provider', () => {
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

  test('a saved plan of four creates applied with a rotated token: each resource fails in the token\'s words, nothing is written', async () => {
    configure(fourCreates);
    expect((await ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan'])).code).toBe(0);
    const writes = sim.executed().length;
    const run = await ws.terraform(['apply', '-input=false', '-no-color', 'tfplan'], { env: WRONG });
    expect(run.code).toBe(1);
    noProviderBug(run);
    // One says it in full, the others point at it in one short line (Terraform sorts them by address).
    const errors = errorsOf(run);
    const [full, short] = [errors.filter((e) => !e.includes('the first error says how')), errors.filter((e) => e.includes('the first error says how'))];
    expect(full).toEqual([expect.stringMatching(/^Error: the token in HOSTING_API_TOKEN was refused by http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(401 unauthorized, request id [\w-]+\): /)]);
    expect(short).toEqual(Array(3).fill('Error: the token in HOSTING_API_TOKEN was refused (the first error says how)'));
    expect(sim.executed()).toHaveLength(writes);
  });

  test('a terraform apply of four creates whose token is revoked while its approval prompt waits: each resource fails, nothing is written', async () => {
    configure(fourCreates);
    const writes = sim.executed().length;
    const revoke = () => void sim.addFault({ effect: { type: 'error', status: 401, code: 'unauthorized' } });
    try {
      const run = await ws.terraform(['apply', '-no-color'], { approve: { meanwhile: revoke } });
      expect(run.code).toBe(1);
      noProviderBug(run);
      // The apply's re-plans follow this run's own plan of each create: none may stand in with a plan of its own.
      expect(errorsOf(run).filter((e) => e.startsWith('Error: the token in HOSTING_API_TOKEN was refused by '))).toHaveLength(1);
      expect(errorsOf(run).filter((e) => e === 'Error: the token in HOSTING_API_TOKEN was refused (the first error says how)')).toHaveLength(3);
      expect(sim.executed()).toHaveLength(writes);
    } finally {
      sim.clearFaults();
    }
  });

  test('a saved plan applied while the API answers nowhere: each resource fails naming the API, nothing is written', async () => {
    // The address from HOSTING_API_URL, so that the saved plan's provider block does not hold it.
    writeFileSync(mainTf, `${header.replace(/ *base_url = .*\n/, '')}\n${fourCreates}`);
    expect((await ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan'], { env: { HOSTING_API_URL: sim.baseUrl } })).code).toBe(0);
    const run = await ws.terraform(['apply', '-input=false', '-no-color', 'tfplan'], { env: { HOSTING_API_URL: 'http://127.0.0.1:9/api/v1' } });
    expect(run.code).toBe(1);
    noProviderBug(run);
    const errors = errorsOf(run);
    const [full, short] = [errors.filter((e) => !e.includes('the first error says how')), errors.filter((e) => e.includes('the first error says how'))];
    expect(full).toEqual([expect.stringMatching(/^Error: the API at http:\/\/127\.0\.0\.1:9\/api\/v1 could not be reached: /)]);
    expect(short).toEqual(Array(3).fill('Error: the API at http://127.0.0.1:9/api/v1 could not be reached (the first error says how)'));
  }, 120_000);

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
    // The refusal is met once: the others wait on the first answer.
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
      // Every run block is one terraform process: no earlier process of it planned these creates, so none is an apply's re-plan.
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
    // Each configuration's provider process says it once; neither takes the other, running beside it, for a plan it applies.
    expect(errorsOf(run)).toEqual([expect.stringMatching(/^Error: the token in HOSTING_API_TOKEN was refused by /), expect.stringMatching(/^Error: the token in HOSTING_API_TOKEN was refused by /)]);
    expect(sim.requests.length - before).toBe(2);
  });

  test('terraform test: a run block plans and applies in provider processes of their own, which the walk proof rests on', async () => {
    configure(fourCreates);
    const tests = join(ws.stackDir, 'tests');
    const tmp = join(ws.root, 'tmp');
    mkdirSync(tests, { recursive: true });
    mkdirSync(tmp, { recursive: true });
    writeFileSync(join(tests, 'deploy.tftest.hcl'), 'run "deploy" {}\n');
    try {
      const run = await ws.terraform(['test', '-no-color'], { env: { TMPDIR: tmp } });
      expect(run.output).toContain('1 passed, 0 failed');
      // Each create is planned by the plan walk's process, the apply walk's, and the cleanup's refresh plan before it destroys
      // (Terraform 1.11); one process serving two walks would record it once for both.
      const planned = processesPlanning(tmp);
      expect(Object.keys(planned)).toContain(`hosting_server_firewall ${IDS.vpsStopped}`);
      expect(Object.values(planned)).toEqual([3, 3, 3, 3]);
    } finally {
      rmSync(tests, { recursive: true, force: true });
    }
  });

  test('four creates and a wrong token through terraform apply (a first deploy): one error, one request', async () => {
    configure(fourCreates);
    const before = sim.requests.length;
    const run = await ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { env: WRONG });
    expect(run.code).toBe(1);
    noProviderBug(run);
    // No resource is read, so no refresh proves the plan walk: the first process of the run that plans does.
    expect(errorsOf(run)).toEqual([expect.stringMatching(/^Error: the token in HOSTING_API_TOKEN was refused by /)]);
    expect(sim.requests.length - before).toBe(1);
  });
});
