import { TerraformIterator } from 'cdktf';
import { DataHostingServers, HostingApi, ServerFirewall } from '../../src';
import { SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/**
 * "Give every VPS I own the web firewall": one ServerFirewall with `forEach` over
 * DataHostingServers(vps, active, primary).ids and a lifecycle block, applied with the real
 * terraform. Every matching server converges (the provisioning one once it is active); shared,
 * suspended, failed and other types are untouched; the next plan is clean.
 */
describeWithTerraform('forEach over a data source: one construct for every server', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;

  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
    ws.synth((stack) => {
      const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl });
      const mine = new DataHostingServers(stack, 'mine', { api, serverType: 'vps', status: 'active', accessRole: 'primary' });
      const each = TerraformIterator.fromList(mine.ids);
      new ServerFirewall(stack, 'web', { api, forEach: each, serverId: each.value, enabled: true, rulesets: [1], lifecycle: { preventDestroy: true } });
    });
    expect((await ws.init()).code).toBe(0);
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('every VPS the account owns and runs converges, nothing else is written, and the next plan is clean', async () => {
    // The seeded provisioning VPS turns active after 1.5 s: from then on it is one of them.
    for (let i = 0; i < 50 && sim.state.server(IDS.vpsProvisioning).server.status !== 'active'; i++) await new Promise((r) => setTimeout(r, 100));
    const others = [IDS.vpsShared, IDS.vpsSuspended, IDS.vpsFailed, IDS.vdsRunning];
    const untouched = others.map((id) => sim.state.server(id).firewall);
    const apply = await ws.apply();
    expect(apply.output).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
    expect(apply.code).toBe(0);
    expect(sim.executed().map((w) => `${w.serverId} ${w.detail}`).sort()).toEqual([
      `${IDS.vpsProvisioning} {"enabled":true,"rulesets":[1]}`,
      `${IDS.vpsRunning} {"enabled":true,"rulesets":[1]}`,
      `${IDS.vpsStopped} {"rulesets":[1]}`,
    ]);
    expect(others.map((id) => sim.state.server(id).firewall)).toEqual(untouched);
    expect((await ws.plan()).code).toBe(0);
  });
});
