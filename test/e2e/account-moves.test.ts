import { writeFileSync } from 'node:fs';
import { SEED_SERVER_IDS as IDS, SEED_TOKEN_NAMES, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/**
 * Issue 74 §1, with the real terraform: the account moves between `terraform plan -out=tfplan` and
 * `terraform apply tfplan`, and Terraform accepts every answer (the workspace fails a test on any
 * "inconsistent …" of Terraform's), the apply keeps what the plan said, and a failed apply that
 * wrote nothing leaves the reviewed plan applicable. test/provider/account-moves-model.test.ts
 * generates the sequences these cases came from.
 */
describeWithTerraform('the account moves between a saved plan and its apply', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
  let mainTf: string;
  let header: string;
  const VPS = IDS.vpsRunning;

  const configure = (hcl: string) => writeFileSync(mainTf, `${header}\n${hcl}`);
  const planToFile = (extra: Record<string, string> = {}) => ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan'], { env: extra });
  const applyFile = (extra: Record<string, string> = {}) => ws.terraform(['apply', '-input=false', '-no-color', 'tfplan'], { env: extra });
  const firewall = (body: string) => `resource "hosting_server_firewall" "fw" {\n  server_id = "${VPS}"\n${body}}\n`;
  const writes = () => sim.executed({ serverId: VPS }).length;

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace(env);
    ({ mainTf, header } = await ws.initHclFor(env, sim.baseUrl));
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });
  beforeEach(() => sim.drift(VPS, { firewall: { enabled: false, rulesets: [] }, power: 'running' }));

  test('case 1: a firewall that sets only enabled; a rule set added by hand before the apply is left, and Terraform accepts the state', async () => {
    configure(firewall('  enabled = false\n'));
    expect((await ws.apply()).code).toBe(0);
    configure(firewall('  enabled = true\n'));
    expect((await planToFile()).code).toBe(0);
    sim.drift(VPS, { firewall: { rulesets: [3] } });
    const run = await applyFile();
    expect(run.code).toBe(0);
    expect(sim.state.server(VPS).firewall).toEqual({ enabled: true, rulesets: [3] });
    // The next plan reads the rule set into the state, and changes nothing.
    expect((await ws.terraform(['plan', '-input=false', '-no-color', '-detailed-exitcode'])).code).toBe(0);
  });

  test('case 2: a rule set by name deleted and made again under another id before the apply: refused in the provider\'s words, nothing written; the next plan applies', async () => {
    configure(firewall('  enabled       = false\n  ruleset_names = ["web"]\n'));
    expect((await ws.apply()).code).toBe(0);
    configure(firewall('  enabled       = true\n  ruleset_names = ["web"]\n'));
    const plan = await planToFile();
    // Only what the user changed: the ids the names had at the refresh stay as they were.
    expect(plan.output).toMatch(/~ enabled\s+= false -> true/);
    expect(plan.output).not.toContain('applied_rulesets');
    const web = sim.state.rulesets.findIndex((r) => r.name === 'web');
    sim.state.rulesets.splice(web, 1, { id: 41, name: 'web' });
    const before = writes();
    const run = await applyFile();
    expect(run.code).toBe(1);
    expect(run.output.replace(/\s+/g, ' ')).toContain(`firewall ${VPS}: ruleset_names resolve to rule sets [41] now, where the plan showed [1] (a rule set was deleted or renamed since); nothing was written`);
    expect(writes()).toBe(before);
    expect((await ws.apply()).code).toBe(0);
    expect(sim.state.server(VPS).firewall).toEqual({ enabled: true, rulesets: [41] });
    sim.state.rulesets.splice(web, 1, { id: 1, name: 'web' });
  });

  test('case 3: the read-only plan job plans a stop and a start, and its apply job applies the saved plan', async () => {
    const readOnly = { HOSTING_API_TOKEN: sim.tokens[SEED_TOKEN_NAMES.readOnly], HOSTING_API_READ_ONLY_PLAN: 'on' };
    const power = (state: string) => `resource "hosting_power_state" "p" {\n  server_id = "${IDS.vdsRunning}"\n  state     = "${state}"\n}\n`;
    configure(power('running'));
    expect((await ws.apply()).code).toBe(0);
    for (const state of ['stopped', 'running']) {
      configure(power(state));
      const plan = await planToFile(readOnly);
      expect(plan.output).not.toContain('Error');
      expect(plan.code).toBe(0);
      expect((await applyFile()).code).toBe(0);
      expect(sim.state.server(IDS.vdsRunning).server.power).toBe(state);
    }
  });

  test('case 4: a plan that changes only on_destroy writes nothing, even after a change by hand seconds later', async () => {
    configure(firewall('  enabled  = true\n  rulesets = [1]\n'));
    expect((await ws.apply()).code).toBe(0);
    configure(firewall('  enabled    = true\n  rulesets   = [1]\n  on_destroy = "restore"\n'));
    const plan = await planToFile();
    expect(plan.output).not.toContain('Warning');
    sim.drift(VPS, { firewall: { enabled: false, rulesets: [2] } });
    const before = writes();
    expect((await applyFile()).code).toBe(0);
    expect(writes()).toBe(before);
    expect(sim.state.server(VPS).firewall).toEqual({ enabled: false, rulesets: [2] });
    configure('');
    expect((await ws.apply()).code).toBe(0);
  });

  test('case 5: an apply refused before it wrote leaves the state as it was, and the same reviewed plan applies once the token is right', async () => {
    configure(firewall('  enabled = false\n'));
    expect((await ws.apply()).code).toBe(0);
    configure(firewall('  enabled = true\n'));
    expect((await planToFile()).code).toBe(0);
    const refused = await applyFile({ HOSTING_API_TOKEN: 'hsim_rotated_away_0000000000' });
    expect(refused.code).toBe(1);
    const again = await applyFile();
    expect(again.output).not.toContain('Saved plan is stale');
    expect(again.code).toBe(0);
    expect(sim.state.server(VPS).firewall!.enabled).toBe(true);
  });
});
