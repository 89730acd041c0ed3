import { UNKNOWN } from '../../src/provider/plugin/values';
import { powerStateResource } from '../../src/provider/resources/power-state';
import type { ObjectValue } from '../../src/provider/resources/resource';
import { createSession } from '../../src/provider/session';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { useSimulator } from '../helpers/simulator';

const s = useSimulator({ operationDelays: { queuedMs: 0, runningMs: 0 } });

const power = (image: string, applyId: string | typeof UNKNOWN | null): ObjectValue => ({
  id: IDS.vpsRunning, server_id: IDS.vpsRunning, state: 'running', stop_method: null, force_stop_fallback: null, reboot_triggers: { image }, hard_reboot: null, ready_timeout_seconds: null, operation_timeout_seconds: null, apply_id: applyId,
});
const config = (image: string): ObjectValue => ({ ...power(image, null), id: null });

/**
 * What keys a reboot is what Terraform keeps through a crash: the prior state's apply id and the
 * configuration. Private data plays no part (Terraform stores none when the provider dies).
 */
describe('the reboot of a trigger change happens once, whatever process died', () => {
  const apply = (priorImage: string, priorApplyId: string, image: string) => {
    const sessions = createSession({ client: s.client(), tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, now: s.clock.now }, new AbortController().signal);
    return powerStateResource.apply(sessions.forCall('apply'), { prior: power(priorImage, priorApplyId), planned: power(image, UNKNOWN), config: config(image), private: {} });
  };
  const reboots = () => s.sim.executed({ serverId: IDS.vpsRunning, kind: 'action' }).map((a) => a.detail);

  test('an apply run again after the provider died (same prior state, no private data) replays the reboot, never repeats it', async () => {
    expect((await apply('v1', 'a1', 'v2')).error).toBeUndefined();
    expect((await apply('v1', 'a1', 'v2')).error).toBeUndefined();
    expect(reboots()).toEqual(['reboot']);
    expect(s.sim.state.server(IDS.vpsRunning).bootCount).toBe(1);
  });

  test('new triggers, or the same change made again later (A -> B -> A -> B), reboot again', async () => {
    // v1 -> v2 applied (apply id a1 -> a2), v2 -> v1 (a2 -> a3), then v1 -> v2 again from a3.
    expect((await apply('v1', 'a1', 'v2')).error).toBeUndefined();
    expect((await apply('v2', 'a2', 'v3')).error).toBeUndefined();
    expect((await apply('v3', 'a3', 'v2')).error).toBeUndefined();
    expect((await apply('v2', 'a4', 'v1')).error).toBeUndefined();
    expect((await apply('v1', 'a5', 'v2')).error).toBeUndefined();
    expect(reboots()).toEqual(['reboot', 'reboot', 'reboot', 'reboot', 'reboot']);
  });
});
