import { SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { ipDoc, powerDoc, rebootDoc, useHandler } from '../helpers/handler';

/*
 * A re-run with the same instance id sends the same keys, as an apply killed before it returned
 * does: the API replays the answers of the earlier run. Those tell what happened then, never
 * what happens now; the server is read, and what is still to do is done under a key not used yet.
 */
const h = useHandler();
const actions = () => h.sim.executed({ kind: 'action' }).map((w) => `${w.serverId} ${w.detail}`);
const LATER = { HOSTING_FIRST_PLANNED_AT: '2026-11-20T10:00:00Z', HOSTING_PLANNED_AT: '2026-11-21T10:00:00Z' };

test('a graceful shutdown that failed in an earlier run is sent again, once, after the OS is fixed', async () => {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'operation', outcome: { status: 'failed', takesEffect: false } } });
  const failed = await h.run('apply', powerDoc(IDS.vpsRunning, 'stopped'));
  expect(failed.code).toBe(1);
  const again = await h.run('apply', powerDoc(IDS.vpsRunning, 'stopped'));
  expect(again.code).toBe(0);
  expect(again.stdout.join('\n')).toMatch(/the action of an earlier run; reading the server before deciding/);
  expect(actions()).toEqual([`${IDS.vpsRunning} shutdown`, `${IDS.vpsRunning} shutdown`]);
});

test('a start that succeeded in an earlier run, undone out of band since, is not taken for this run\'s start', async () => {
  expect((await h.run('apply', powerDoc(IDS.vpsStopped, 'running'))).code).toBe(0);
  h.sim.drift(IDS.vpsStopped, { power: 'stopped' });
  const again = await h.run('apply', powerDoc(IDS.vpsStopped, 'running'));
  expect(again.stderr).toEqual([]);
  expect(again.code).toBe(0);
  expect(actions()).toEqual([`${IDS.vpsStopped} start`, `${IDS.vpsStopped} start`]);
});

test('a PATCH refused 423 in an earlier run lands once the lock is lifted', async () => {
  h.sim.drift(IDS.dedicated, { status: 'suspended' });
  const locked = await h.run('apply', ipDoc(IDS.dedicated, IPS.primary, { description: 'web' }));
  expect(locked.code).toBe(1);
  expect(locked.stderr.join('\n')).toContain('423 service_locked');
  h.sim.drift(IDS.dedicated, { status: 'active' });
  const again = await h.run('apply', ipDoc(IDS.dedicated, IPS.primary, { description: 'web' }));
  expect(again.code).toBe(0);
  expect(h.sim.executed({ kind: 'ip_settings' }).map((w) => w.detail)).toEqual(['{"description":"web"}']);
});

test('a reboot an interrupted run carried out is not repeated by its re-run; one that failed is', async () => {
  expect((await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER })).code).toBe(0);
  const rerun = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(rerun.code).toBe(0);
  expect(rerun.stdout.at(-1)).toMatch(/rebooted by an earlier, interrupted run .*; not rebooted again$/);
  expect(actions()).toEqual([`${IDS.vpsRunning} reboot`]);

  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'operation', outcome: { status: 'failed', takesEffect: false } } });
  expect((await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER, instanceId: 'instance-2' })).code).toBe(1);
  expect((await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER, instanceId: 'instance-2' })).code).toBe(0);
  expect(actions()).toEqual([`${IDS.vpsRunning} reboot`, `${IDS.vpsRunning} reboot`, `${IDS.vpsRunning} reboot`]);
});

/**
 * A reboot an interrupted run sent, whose answer the API stored as `status` `code` (the simulator
 * carries the reboot out all the same, only to store that answer), and its re-run once that reboot
 * is over: nothing in flight tells of it.
 */
async function rerunAfterStoredError(status: number, code: string) {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status, code, takesEffect: true } });
  expect((await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER })).code).toBe(1);
  h.clock.advance(600_000);
  const rerun = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(rerun.code).toBe(0);
  return rerun;
}

test('a reboot an interrupted run sent, answered 500 after it took effect, is not repeated by its re-run', async () => {
  const rerun = await rerunAfterStoredError(500, 'internal_error');
  // The stored 500 may have been recorded before or after the reboot ran: no read can tell, and a second reboot is the worse mistake.
  expect(rerun.stdout.at(-1)).toMatch(/the reboot was sent but not confirmed \(the API replayed 500 \w+ for this key by an earlier run .*\); it is not repeated/);
  expect(actions()).toEqual([`${IDS.vpsRunning} reboot`]);
});

test('a reboot an interrupted run sent, answered 502 action_failed, is sent again by its re-run: the API said it did not run', async () => {
  const rerun = await rerunAfterStoredError(502, 'action_failed');
  expect(rerun.stdout.join('\n')).toMatch(/the API replayed 502 action_failed stored for this key by an earlier run .*; rebooting under a new key/);
  expect(actions()).toEqual([`${IDS.vpsRunning} reboot`, `${IDS.vpsRunning} reboot`]);
});

test.each(['timed_out', 'outcome_unknown'] as const)('a reboot whose operation ends %s is not repeated in that run, and says so', async (status) => {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'operation', outcome: { status, takesEffect: false } } });
  const run = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(run.code).toBe(0);
  expect(run.stdout.at(-1)).toMatch(new RegExp(`^warning: reboot ${IDS.vpsRunning}: the reboot was sent but not confirmed \\(operation op_\\d+ ${status}.*\\); it is not repeated`));
  expect(actions()).toHaveLength(1);
});

test('a reboot an interrupted run sent is not sent again by a re-run that resets instead (hard_reboot edited): one power cycle', async () => {
  expect((await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER })).code).toBe(0);
  const rerun = await h.run('apply', rebootDoc(IDS.vpsRunning, true), { env: LATER });
  expect(rerun.code).toBe(0);
  expect(rerun.stdout.join('\n')).toContain('this reboot was sent before as reboot under the same key; following that one');
  expect(actions()).toEqual([`${IDS.vpsRunning} reboot`]);
});

test('a reboot answered 429 after it took effect is not repeated: not by the retry, which meets the stored 429, nor by a re-run', async () => {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status: 429, code: 'rate_limited', takesEffect: true } });
  const run = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(run.code).toBe(0);
  expect(run.stdout.at(-1)).toMatch(/the reboot was sent but not confirmed \(the API replayed 429 rate_limited for this key \(request id .*\); it is not repeated/);
  h.clock.advance(600_000);
  const rerun = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(rerun.stdout.at(-1)).toMatch(/the reboot was sent but not confirmed \(the API replayed 429 rate_limited for this key by an earlier run .*\); it is not repeated/);
  expect(actions()).toEqual([`${IDS.vpsRunning} reboot`]);
});
