import { powerStateResource } from '../../src/provider/resources/power-state';
import type { ObjectValue } from '../../src/provider/resources/resource';
import { createSession } from '../../src/provider/session';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { useSimulator } from '../helpers/simulator';

const s = useSimulator({ operationDelays: { queuedMs: 0, runningMs: 0 } });

const power = (image: string): ObjectValue => ({
  id: IDS.vpsRunning, server_id: IDS.vpsRunning, state: 'running', stop_method: null, force_stop_fallback: null, reboot_triggers: { image }, hard_reboot: null, ready_timeout_seconds: null, operation_timeout_seconds: null,
});

/**
 * An apply killed before it returned leaves the key namespace where it was (Terraform never stored
 * the next generation). The next apply, with newer triggers, reboots again: its key carries the
 * triggers, so the earlier run's stored answer is not taken for this reboot.
 */
test('after an apply killed before it returned, new reboot triggers still reboot', async () => {
  const options = { client: s.client(), tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, now: s.clock.now };
  const sessions = createSession(options, new AbortController().signal);
  const priv = { instance: 'i-1', generation: 1 };
  const apply = (from: string, to: string) =>
    powerStateResource.apply(sessions.forCall('apply'), { prior: power(from), planned: power(to), config: power(to), private: priv });
  expect((await apply('v1', 'v2')).error).toBeUndefined();
  // Killed: the generation in the private state never moved on; the triggers changed again.
  expect((await apply('v2', 'v3')).error).toBeUndefined();
  expect(s.sim.executed({ serverId: IDS.vpsRunning, kind: 'action' }).map((a) => a.detail)).toEqual(['reboot', 'reboot']);
});
