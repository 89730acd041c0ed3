import type { TerraformStack } from 'cdktf';
import { Bridge, HostingApi, PowerState, PowerStateValue } from '../../src';
import { SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

interface PowerProps {
  readonly image: string;
  readonly readyTimeoutSeconds?: number;
  readonly operationTimeoutSeconds?: number;
  readonly hardReboot?: boolean;
  readonly baseUrl?: string;
  readonly tokenEnvVar?: string;
}

/**
 * Only a change of an applied reboot trigger may reboot: every other prop, the connection, and a
 * first apply that failed must not. Each step is a real `terraform apply`; the simulator's log of
 * executed actions is the witness.
 */
describe.each([Bridge.PROVIDER, Bridge.TERRAFORM_DATA])('bridge %s', (bridge) => {
  describeWithTerraform('PowerState reboots only when an applied reboot trigger changes', () => {
    let sim: RunningSimulator;
    const env: Record<string, string> = { HOSTING_API_TOKEN: 'hsim_mistyped_token_0000', OTHER_TOKEN: SENTINEL_TOKEN };
    let ws: TerraformWorkspace;
    const stackWith = (p: PowerProps) => (stack: TerraformStack) => {
      const api = new HostingApi(stack, 'hosting', { baseUrl: p.baseUrl ?? sim.baseUrl, tokenEnvVar: p.tokenEnvVar, bridge });
      const { image, readyTimeoutSeconds, operationTimeoutSeconds, hardReboot } = p;
      new PowerState(stack, 'power', { api, serverId: IDS.vpsRunning, state: PowerStateValue.RUNNING, rebootTriggers: { image }, readyTimeoutSeconds, operationTimeoutSeconds, hardReboot });
    };
    const actions = () => sim.executed({ kind: 'action' }).map((a) => a.detail);
    const boots = () => sim.state.server(IDS.vpsRunning).bootCount;

    beforeAll(async () => {
      sim = await simulatorWithSentinel();
      ws = new TerraformWorkspace(env);
      ws.synth(stackWith({ image: 'v1' }));
      expect((await ws.init()).code).toBe(0);
    });
    afterAll(async () => {
      await sim?.close();
      ws?.dispose();
    });

    test('a first apply that fails (a mistyped token), then one that succeeds: no reboot', async () => {
      const failed = await ws.apply();
      expect(failed.code).not.toBe(0);
      expect(failed.output).toContain('401 unauthorized');
      env.HOSTING_API_TOKEN = SENTINEL_TOKEN;
      const run = await ws.apply();
      expect(run.code).toBe(0);
      if (bridge !== Bridge.PROVIDER) expect(run.output).toContain(`reboot ${IDS.vpsRunning}: first creation, no reboot`);
      expect(actions()).toEqual([]);
      expect(boots()).toBe(0);
    });

    test.each<[string, PowerProps]>([
      ['readyTimeoutSeconds', { image: 'v1', readyTimeoutSeconds: 120 }],
      ['operationTimeoutSeconds', { image: 'v1', readyTimeoutSeconds: 120, operationTimeoutSeconds: 90 }],
      ['hardReboot', { image: 'v1', readyTimeoutSeconds: 120, operationTimeoutSeconds: 90, hardReboot: true }],
      ['the HostingApi baseUrl', { image: 'v1', readyTimeoutSeconds: 120, operationTimeoutSeconds: 90, hardReboot: true, baseUrl: 'BASE/' }],
      ['the HostingApi tokenEnvVar', { image: 'v1', readyTimeoutSeconds: 120, operationTimeoutSeconds: 90, hardReboot: true, baseUrl: 'BASE/', tokenEnvVar: 'OTHER_TOKEN' }],
    ])('changing %s alone does not reboot', async (_prop, props) => {
      ws.synth(stackWith({ ...props, baseUrl: props.baseUrl?.replace('BASE', sim.baseUrl) }));
      const run = await ws.apply();
      expect(run.code).toBe(0);
      expect(run.output).not.toMatch(/terraform_data\.power_reboot_[0-9A-F]+ must be replaced/);
      expect(actions()).toEqual([]);
      expect(boots()).toBe(0);
    });

    test('a trigger change reboots exactly once, with the settings changed before it (reset)', async () => {
      ws.synth(stackWith({ image: 'v2', readyTimeoutSeconds: 120, operationTimeoutSeconds: 90, hardReboot: true, baseUrl: `${sim.baseUrl}/`, tokenEnvVar: 'OTHER_TOKEN' }));
      const run = await ws.apply();
      expect(run.code).toBe(0);
      expect(actions()).toEqual(['reset']);
      expect(boots()).toBe(1);
      expect((await ws.plan()).code).toBe(0);
    });
  });
});

/**
 * The simulator and a workspace whose first stack, a power state of the running VPS with triggers
 * v1, is applied before a block's tests; `stackWith` gives the next ones.
 */
function useAppliedPowerState() {
  const t = {
    sim: undefined as unknown as RunningSimulator,
    ws: undefined as unknown as TerraformWorkspace,
    stackWith: (image: string, state = PowerStateValue.RUNNING) => (stack: TerraformStack) => {
      const api = new HostingApi(stack, 'hosting', { baseUrl: t.sim.baseUrl });
      new PowerState(stack, 'power', { api, serverId: IDS.vpsRunning, state, rebootTriggers: { image } });
    },
  };
  beforeAll(async () => {
    t.sim = await simulatorWithSentinel();
    t.ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
    t.ws.synth(t.stackWith('v1'));
    expect((await t.ws.init()).code).toBe(0);
    expect((await t.ws.apply()).code).toBe(0);
  });
  afterAll(async () => {
    await t.sim?.close();
    t.ws?.dispose();
  });
  return t;
}

/**
 * Issue 70: `terraform apply -replace` of a power state whose triggers also changed shows the
 * trigger change under `-/+`, which reads as a reboot coming. A replacement is a create, which
 * never reboots: the plan says so, and the apply sends no action.
 */
describeWithTerraform('a replaced power state does not reboot, and its plan says so', () => {
  const t = useAppliedPowerState();

  test('-replace with new triggers: "does not reboot" at plan and apply, no action sent', async () => {
    const [address] = (await t.ws.terraform(['state', 'list'])).output.trim().split('\n').filter((line) => line.startsWith('hosting_power_state.'));
    t.ws.synth(t.stackWith('v2'));
    const run = await t.ws.terraform(['apply', '-auto-approve', '-input=false', '-no-color', `-replace=${address}`]);
    expect(run.code).toBe(0);
    expect(run.output).toContain('will be replaced, as requested');
    expect(run.output).toContain('Warning: Creating a power state does not reboot its server');
    // Terraform plans the update first and shows only its words at plan (the create's come from the apply's own plan): they say what a replacement does.
    expect(run.output.replace(/\s+/g, ' ')).toContain('If this plan replaces the power state instead (-/+), it is created, and creating one never reboots.');
    expect(t.sim.executed({ kind: 'action' })).toEqual([]);
    expect(t.sim.state.server(IDS.vpsRunning).bootCount).toBe(0);
  });
});

/**
 * Issue 74: the plan's effects are what the apply does. A change of triggers on a power state that
 * is to be stopped does not reboot and waits for nothing; a server stopped by hand after a saved
 * plan that reboots it is started instead, and the apply names what it set back.
 */
describeWithTerraform('a power state\'s apply does what its plan said of the triggers', () => {
  const t = useAppliedPowerState();
  const actions = () => t.sim.executed({ kind: 'action' }).map((a) => a.detail);

  test('new triggers with state stopped: a stop, no reboot, no wait and no warning', async () => {
    t.ws.synth(t.stackWith('v2', PowerStateValue.STOPPED));
    const started = Date.now();
    const run = await t.ws.apply();
    expect(run.code).toBe(0);
    expect(run.output).not.toContain('Warning:');
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(actions()).toEqual(['shutdown']);
    expect(t.sim.state.server(IDS.vpsRunning).bootCount).toBe(0);
  });

  test('a saved plan that reboots, the server stopped by hand before its apply: started, named, not rebooted', async () => {
    t.ws.synth(t.stackWith('v3'));
    expect((await t.ws.apply()).code).toBe(0);
    t.ws.synth(t.stackWith('v4'));
    const plan = await t.ws.terraform(['plan', '-input=false', '-no-color', '-out=tfplan']);
    expect(plan.output).toContain('Warning: The apply reboots a server: its rebootTriggers changed');
    t.sim.drift(IDS.vpsRunning, { power: 'stopped' });
    const before = actions().length;
    const run = await t.ws.terraform(['apply', '-input=false', '-no-color', 'tfplan']);
    expect(run.code).toBe(0);
    expect(run.output.replace(/\s+/g, ' ')).toContain(`power ${IDS.vpsRunning}: changed since the plan: state "running" -> "stopped" (set back to "running")`);
    // The start is the fresh boot the triggers ask for: no reboot after it.
    expect(actions().slice(before)).toEqual(['start']);
    expect(t.sim.state.server(IDS.vpsRunning).server.power).toBe('running');
  });
});
