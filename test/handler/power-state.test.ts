import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { powerDoc, rebootDoc, useHandler } from '../helpers/handler';

const h = useHandler();
const RUNNING = IDS.vpsRunning;
const STOPPED = IDS.vpsStopped;
const outcome = (status: 'failed' | 'timed_out' | 'outcome_unknown', takesEffect: boolean, times = 1) =>
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times, effect: { type: 'operation', outcome: { status, takesEffect } } });
const actions = () => h.sim.executed({ kind: 'action' }).map((w) => `${w.serverId} ${w.detail}`);

test('in sync: one request, no action', async () => {
  const run = await h.run('apply', powerDoc(RUNNING, 'running'));
  expect(run.stdout).toEqual([`power ${RUNNING}: in sync (running)`]);
  expect(run.requests).toHaveLength(1);
});

test('stop gracefully: read, POST, poll, read to confirm', async () => {
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(run.code).toBe(0);
  expect(run.stdout[0]).toBe(`power ${RUNNING}: running -> stopped (shutdown)`);
  expect(run.stdout[1]).toMatch(/^power vps_web_1: shutdown accepted as operation op_\d{6} \(request id req_/);
  expect(run.stdout.at(-1)).toBe(`power ${RUNNING}: stopped (confirmed)`);
  expect(run.requests.map((r) => r.endpoint)).toEqual([
    'GET /servers/{serverId}', 'POST /servers/{serverId}/actions',
    ...Array(run.requests.length - 3).fill('GET /servers/{serverId}/operations/{operationId}'),
    'GET /servers/{serverId}',
  ]);
  expect(actions()).toEqual([`${RUNNING} shutdown`]);
});

test('start, and power_off as the stop method', async () => {
  expect((await h.run('apply', powerDoc(STOPPED, 'running'))).code).toBe(0);
  expect((await h.run('apply', powerDoc(RUNNING, 'stopped', { stopMethod: 'power_off' }))).code).toBe(0);
  expect(actions()).toEqual([`${STOPPED} start`, `${RUNNING} power_off`]);
});

test('a lost action response is replayed: exactly one action executed', async () => {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'drop_response' } });
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(run.code).toBe(0);
  expect(run.writes.map((w) => [w.dropped, w.replayed])).toEqual([[true, false], [false, true]]);
  expect(actions()).toEqual([`${RUNNING} shutdown`]);
});

test('outcome_unknown that took effect: read first, success, no second action', async () => {
  outcome('outcome_unknown', true);
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`power ${RUNNING}: stopped (confirmed after an unknown outcome)`);
  expect(actions()).toHaveLength(1);
});

test('outcome_unknown without effect: read first, then one new attempt with a new key', async () => {
  outcome('outcome_unknown', false);
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(run.code).toBe(0);
  expect(actions()).toEqual([`${RUNNING} shutdown`, `${RUNNING} shutdown`]);
  // The same key would have been replayed; two executions prove the second attempt had a new key.
  expect(run.writes.map((w) => w.replayed)).toEqual([false, false]);
});

test('outcome_unknown twice: stop and say so; no third action', async () => {
  outcome('outcome_unknown', false, 2);
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(run.code).toBe(1);
  expect(run.stderr[0]).toBe(`error: power ${RUNNING}: shutdown twice ended with an unknown outcome and the server is still running`);
  expect(actions()).toHaveLength(2);
});

test.each([[503, 'outcome_unknown'], [504, 'action_timeout']])('%i %s on the POST itself, with the action taken: read, success', async (status, code) => {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status, code, takesEffect: true } });
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(run.code).toBe(0);
  expect(actions()).toHaveLength(1);
});

test('an operation the API lost track of (404 once while followed): the server tells, no second action', async () => {
  h.sim.addFault({ endpoint: 'GET /servers/{serverId}/operations/{operationId}', times: 1, effect: { type: 'error', status: 404, code: 'not_found' } });
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`power ${RUNNING}: stopped (confirmed after an unknown outcome)`);
  expect(actions()).toHaveLength(1);
});

test('failed fails with the operation message; nothing more is tried', async () => {
  outcome('failed', false);
  const run = await h.run('apply', powerDoc(STOPPED, 'running'));
  expect(run.code).toBe(1);
  expect(run.stderr[0]).toMatch(new RegExp(`^error: power ${STOPPED}: start failed: operation op_\\d+ failed: the server`));
  expect(actions()).toHaveLength(1);
});

test('timed_out is "not confirmed in time", not "failed": the server is read, and the action is taken again only when it did not happen', async () => {
  outcome('timed_out', false);
  const notDone = await h.run('apply', powerDoc(STOPPED, 'running'));
  expect(notDone.code).toBe(0);
  expect(notDone.stdout.join('\n')).toMatch(/start outcome unknown \(operation op_\d+ timed_out/);
  expect(actions()).toEqual([`${STOPPED} start`, `${STOPPED} start`]);
  outcome('timed_out', true);
  const done = await h.run('apply', powerDoc(RUNNING, 'stopped'), { instanceId: 'instance-2' });
  expect(done.code).toBe(0);
  expect(actions()).toEqual([`${STOPPED} start`, `${STOPPED} start`, `${RUNNING} shutdown`]);
});

test('a failed graceful shutdown falls back to power_off only when asked', async () => {
  outcome('failed', false);
  const refused = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(refused.code).toBe(1);
  expect(refused.stderr.at(-1)).toContain('set forceStopFallback');
  outcome('failed', false);
  const forced = await h.run('apply', powerDoc(RUNNING, 'stopped', { forceStopFallback: true }), { instanceId: 'instance-2' });
  expect(forced.code).toBe(0);
  expect(forced.stdout.join('\n')).toContain('graceful shutdown failed');
  expect(actions()).toEqual([`${RUNNING} shutdown`, `${RUNNING} shutdown`, `${RUNNING} power_off`]);
});

test('a graceful shutdown refused 502 action_failed on its POST falls back to power_off when asked', async () => {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'error', status: 502, code: 'action_failed' } });
  const forced = await h.run('apply', powerDoc(RUNNING, 'stopped', { forceStopFallback: true }));
  expect(forced.code).toBe(0);
  expect(actions()).toEqual([`${RUNNING} power_off`]);
});

test('a reboot whose key the API says is another request\'s, as reboot and as reset, fails after trying both', async () => {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', effect: { type: 'error', status: 422, code: 'idempotency_key_reused' } });
  const run = await h.run('apply', rebootDoc(RUNNING), { env: { HOSTING_FIRST_PLANNED_AT: '2026-11-20T10:00:00Z', HOSTING_PLANNED_AT: '2026-11-21T10:00:00Z' } });
  expect(run.code).toBe(1);
  expect(run.requests.filter((r) => r.endpoint === 'POST /servers/{serverId}/actions')).toHaveLength(2);
});

test('a provisioning server is waited for until active, then acted on', async () => {
  const run = await h.run('apply', powerDoc(IDS.vpsProvisioning, 'running'));
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`power ${IDS.vpsProvisioning}: waiting: the server is provisioning`);
  expect(actions()).toEqual([`${IDS.vpsProvisioning} start`]);
});

test('waiting is bounded', async () => {
  h.sim.drift(RUNNING, { status: 'building' });
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped', { timeouts: { readySeconds: 5, operationSeconds: 60 } }));
  expect(run.code).toBe(1);
  expect(run.stderr[0]).toBe(`error: power ${RUNNING}: still waiting after 5s: the server is building; nothing was changed`);
  expect(run.writes).toEqual([]);
});

test('an operation in flight is waited for before deciding; its result may make the action unnecessary', async () => {
  await h.client().runAction(RUNNING, 'shutdown', 'someone-else-key-1');
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'));
  expect(run.code).toBe(0);
  expect(run.stdout[0]).toMatch(/running -> stopped \(after operation op_\d+ finishes\)/);
  expect(actions()).toEqual([`${RUNNING} shutdown`]);
});

test.each([
  ['suspended', IDS.vpsSuspended, 'the server is suspended'],
  ['failed', IDS.vpsFailed, 'the server is in status failed'],
])('a %s server fails clearly, no action', async (_n, id, reason) => {
  const run = await h.run('apply', powerDoc(id, 'running'));
  expect(run.code).toBe(1);
  expect(run.stderr[0]).toBe(`error: power ${id}: ${reason}; nothing was changed`);
  expect(run.writes).toEqual([]);
});

test('missing servers:control: explained from actions and /connect before any POST', async () => {
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'), { tokenName: 'power-without-control' });
  expect(run.code).toBe(1);
  expect(run.stderr).toEqual([
    `error: power ${RUNNING}: shutdown is not available: token "power-without-control" lacks the scope servers:control (it has servers:read, servers:power, network:read); nothing was changed`,
    '  what to do: create a token with servers:power and servers:control in the control panel\'s API section, or manage only starts with this token',
  ]);
  expect(run.requests.map((r) => r.endpoint)).toEqual(['GET /servers/{serverId}', 'GET /connect']);
});

test('a shared (secondary) server: explained without a POST', async () => {
  const run = await h.run('apply', powerDoc(IDS.vpsShared, 'stopped'));
  expect(run.stderr[0]).toBe(`error: power ${IDS.vpsShared}: shutdown is not available: the server is shared with this account and is read-only for it; nothing was changed`);
  expect(run.writes).toEqual([]);
});

test('power unknown is waited out and never acted on while unknown', async () => {
  h.sim.drift(RUNNING, { power: 'unknown' });
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped', { timeouts: { readySeconds: 3, operationSeconds: 60 } }));
  expect(run.code).toBe(1);
  expect(run.stderr[0]).toBe(`error: power ${RUNNING}: still waiting after 3s: its power state is unknown; nothing was changed`);
  expect(run.writes).toEqual([]);
});

test('a read-only token: the refusal names both missing scopes and does not suggest managing starts', async () => {
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'), { tokenName: 'read-only' });
  expect(run.code).toBe(1);
  expect(run.stderr).toEqual([
    `error: power ${RUNNING}: shutdown is not available: token "read-only" lacks the scope servers:power, servers:control (it has servers:read, network:read); nothing was changed`,
    '  what to do: create a token with servers:power and servers:control in the control panel\'s API section',
  ]);
});

test('a refused token: the hint names the variable that holds it', async () => {
  const run = await h.run('apply', powerDoc(RUNNING, 'stopped'), { tokenName: 'expired' });
  expect(run.code).toBe(1);
  expect(run.stderr.at(-1)).toBe('  what to do: the token itself was refused (unauthorized); check that the token in the environment variable HOSTING_TEST_TOKEN is valid, not expired and not revoked.');
});

test('answers earlier failed runs left under their keys are walked past, however many: the next run starts the server once', async () => {
  for (let run = 1; run <= 3; run++) {
    // The API answers a replay after the fault is taken: run N replays N - 1 answers, then fails its own start.
    outcome('failed', false, run);
    const failed = await h.run('apply', powerDoc(STOPPED, 'running'));
    expect(failed.stderr.find((line) => line.startsWith('error:'))).toMatch(new RegExp(`^error: power ${STOPPED}: start failed: operation op_00000${run} failed`));
  }
  const run = await h.run('apply', powerDoc(STOPPED, 'running'));
  expect(run.code).toBe(0);
  expect(run.stdout).toContain(`power ${STOPPED}: running (confirmed)`);
  expect(h.sim.state.server(STOPPED).server.power).toBe('running');
  // The failed runs' three starts, then one of its own.
  expect(actions()).toEqual(Array(4).fill(`${STOPPED} start`));
});
