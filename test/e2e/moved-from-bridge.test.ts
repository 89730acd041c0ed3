import type { TerraformStack } from 'cdktf';
import { Bridge, HostingApi, IpSettings, Layer4Protection, Layer7Protection, PowerState, PowerStateValue, ServerFirewall } from '../../src';
import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { HOSTILE_TEXT } from '../helpers/hostile-account';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

/**
 * A stack that began on the terraform_data bridge switches to the provider: `movedFromBridge` writes
 * the moves, the provider's MoveResourceState takes each construct's document over, and nothing is
 * destroyed, created, written or rebooted. (The null_resource bridge needs the hashicorp/null
 * provider, which these machines cannot download: its moves are tested without terraform.)
 */

describeWithTerraform('moving a stack from the terraform_data bridge to the provider', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  const define = (bridge: Bridge, movedFromBridge?: Bridge) => (stack: TerraformStack) => {
    const api = new HostingApi(stack, 'hosting', { baseUrl: sim.baseUrl, bridge });
    new ServerFirewall(stack, 'fw', { api, serverId: IDS.vpsRunning, enabled: true, rulesets: [1], movedFromBridge });
    new IpSettings(stack, 'ip', {
      api, serverId: IDS.dedicated, ip: IPS.secondary, rdns: 'www.example.com', description: HOSTILE_TEXT, protection: { layer4: Layer4Protection.PERMANENT, layer7: Layer7Protection.OFF }, movedFromBridge,
    });
    new PowerState(stack, 'power', { api, serverId: IDS.vpsStopped, state: PowerStateValue.RUNNING, rebootTriggers: { release: '1' }, movedFromBridge });
  };

  test('the switch plans moves and forgets only (and records the reboot triggers), applies with no write and no reboot, and the next plan is clean', async () => {
    ws.synth(define(Bridge.TERRAFORM_DATA));
    expect((await ws.init()).code).toBe(0);
    expect((await ws.apply()).code).toBe(0);
    const writesOnTheBridge = sim.executed().length;
    expect(writesOnTheBridge).toBe(5);
    expect(sim.state.server(IDS.dedicated).ipSettings.get(IPS.secondary)?.description).toBe(HOSTILE_TEXT);

    ws.synth(define(Bridge.PROVIDER, Bridge.TERRAFORM_DATA));
    expect((await ws.init()).code).toBe(0);
    const plan = await ws.plan();
    expect(plan.output.match(/# terraform_data\.\w+ has moved to hosting_(server_firewall|ip_settings)\./g)).toHaveLength(2);
    expect(plan.output).toMatch(/# \(moved from terraform_data\.power_bridge_\w+\)/);
    expect(plan.output.match(/# terraform_data\.power_reboot[-\w]+ will no longer be managed by Terraform, but will not be destroyed/g)).toHaveLength(2);
    // The bridge kept only a hash of the triggers: the provider records them, which reboots nothing.
    expect(plan.output).toMatch(/\+ reboot_triggers\s+= \{\s+\+ "release" = "1"/);
    expect(plan.output).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    expect(plan.output).not.toMatch(/must be replaced|will be destroyed|will be created/);

    const apply = await ws.apply();
    expect(apply.code).toBe(0);
    expect(sim.executed()).toHaveLength(writesOnTheBridge);
    expect(sim.state.server(IDS.vpsStopped).bootCount).toBe(1);
    // The moved state holds the text exactly: the plans above show no change of it, and nothing was written.
    expect(sim.state.server(IDS.dedicated).ipSettings.get(IPS.secondary)?.description).toBe(HOSTILE_TEXT);
    const clean = await ws.plan();
    expect(clean.output).toContain('No changes.');
    expect(clean.code).toBe(0);
  });
});
