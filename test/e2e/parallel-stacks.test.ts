import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSeed, startSimulator, type RunningSimulator } from '../../src/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

const STACKS = 3;
const FIREWALLS = 8;
/** Section 8's token budget, time-scaled: 12 requests per 2 s window, so three stacks wait several windows. */
const LIMITS = { requestsPerToken: 12, actionsPerToken: 10, requestsPerAccount: 300, windowMs: 2_000 };
/** The random spread a pacer adds, and the whole second the reset header is rounded up to. */
const LONGEST_PACING_WAIT_MS = LIMITS.windowMs + 1_000 + 250;

const serverId = (stack: number, i: number) => `vps_team_${stack * FIREWALLS + i + 1}`;
const firewalls = (stack: number) => Array.from({ length: FIREWALLS }, (_, i) =>
  `resource "hosting_server_firewall" "fw${i}" {\n  server_id = "${serverId(stack, i)}"\n  enabled   = true\n  rulesets  = [1]\n}\n`).join('');

/**
 * Three pipelines on one machine apply at once with one token: their provider processes pace as
 * one client through the budget they share (a file of this user's in the temporary directory), so
 * the API refuses almost nothing and no process waits past a window's reset for a figure another
 * process wrote in a clock of its own.
 */
describeWithTerraform('three applies at once on one machine share one rate budget', () => {
  let sim: RunningSimulator;
  const workspaces: TerraformWorkspace[] = [];
  const temp = mkdtempSync(join(tmpdir(), 'shared-budget-'));

  beforeAll(async () => {
    const base = defaultSeed();
    const template = base.servers[0];
    const servers = Array.from({ length: STACKS * FIREWALLS }, (_, i) => ({ ...template, server: { ...template.server, id: `vps_team_${i + 1}` }, firewall: { enabled: false, rulesets: [] } }));
    sim = await startSimulator({ seed: { ...base, servers }, limits: LIMITS });
    // Each workspace's own: initHclFor adds its CLI configuration to it.
    const envs = Array.from({ length: STACKS }, () => ({ HOSTING_API_TOKEN: sim.tokens.full, TMPDIR: temp }));
    envs.forEach((env, stack) => workspaces.push(new TerraformWorkspace(env, `team-${stack + 1}`)));
    await Promise.all(workspaces.map(async (ws, stack) => {
      const { mainTf, header } = await ws.initHclFor(envs[stack], sim.baseUrl);
      writeFileSync(mainTf, `${header}\n${firewalls(stack)}`);
    }));
  });
  afterAll(async () => {
    await sim?.close();
    for (const ws of workspaces) ws.dispose();
    rmSync(temp, { recursive: true, force: true });
  });

  test('under 5% of the answers are 429s, every firewall is written, and no pacing wait outlasts a window', async () => {
    const before = sim.requests.length;
    const logs = workspaces.map((ws) => join(ws.root, 'provider.log'));
    const runs = await Promise.all(workspaces.map((ws, i) =>
      ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color'], { env: { TF_LOG_PROVIDER: 'INFO', TF_LOG_PATH: logs[i] } })));
    for (const run of runs) expect(run.output).toContain('Apply complete!');
    const requests = sim.requests.slice(before);
    const refused = requests.filter((r) => r.status === 429).length;
    expect(refused / requests.length).toBeLessThan(0.05);
    expect(sim.executed({ kind: 'firewall' })).toHaveLength(STACKS * FIREWALLS);

    const waits = logs.flatMap((log) => [...readFileSync(log, 'utf8').matchAll(/ is spent; waiting ([\d.]+) s for it to reset/g)].map((m) => Number(m[1]) * 1000));
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(LONGEST_PACING_WAIT_MS);

    // The shared figure is in wall-clock time: any process can read it, whenever it started.
    const folder = join(temp, `cdktf-server-hosting-pacing-${process.getuid!()}`);
    const [file] = readdirSync(folder).filter((name) => name.endsWith('.json'));
    const { request } = JSON.parse(readFileSync(join(folder, file), 'utf8')) as { request: { resetAtMs: number } };
    expect(Math.abs(request.resetAtMs - Date.now())).toBeLessThan(60_000);
  });
});
