import { serverPowerAction } from '../../src/provider/actions/server-power';
import { serverRebootAction } from '../../src/provider/actions/server-reboot';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { configuredSessions } from '../helpers/sessions';
import { useSimulator } from '../helpers/simulator';

/* The actions' plans (Terraform 1.14+): what a read can know fails the plan, for each action alike. */
const s = useSimulator();

test('a suspended server: the reboot and the power action both fail the plan, in the same words', async () => {
  const session = (await configuredSessions(s.client(), { now: s.clock.now })).forCall('plan');
  const reboot = await serverRebootAction.plan(session, { server_id: IDS.vpsSuspended, hard: null });
  const start = await serverPowerAction.plan(session, { server_id: IDS.vpsSuspended, state: 'running', hard: null, fallback: null });
  for (const diagnostics of [reboot, start]) {
    expect(diagnostics.map((d) => [d.severity, d.summary])).toEqual([[1, expect.stringMatching(/: the server is suspended, and power actions are accepted only while it is active, so (reboot|start) would be refused/)]]);
  }
});

test('a stopped server that is active: the reboot warns that it will not reboot it', async () => {
  const session = (await configuredSessions(s.client(), { now: s.clock.now })).forCall('plan');
  const reboot = await serverRebootAction.plan(session, { server_id: IDS.vpsStopped, hard: null });
  expect(reboot.map((d) => [d.severity, d.summary])).toEqual([[2, `reboot ${IDS.vpsStopped}: the server is stopped, so the invocation will not reboot it`]]);
});
