import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { powerDoc, rebootDoc, useHandler } from '../helpers/handler';

const h = useHandler();
const FIRST = { HOSTING_FIRST_PLANNED_AT: '2026-11-20T10:00:00Z', HOSTING_PLANNED_AT: '2026-11-20T10:00:00Z' };
const LATER = { HOSTING_FIRST_PLANNED_AT: '2026-11-20T10:00:00Z', HOSTING_PLANNED_AT: '2026-11-21T08:00:00Z' };

test('first creation: no request, no reboot', async () => {
  const run = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: FIRST });
  expect(run.stdout).toEqual([`reboot ${IDS.vpsRunning}: first creation, no reboot`]);
  expect(run.requests).toEqual([]);
});

test('a trigger change reboots once and confirms the server runs', async () => {
  const run = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(run.code).toBe(0);
  expect(run.stdout.at(-1)).toBe(`warning: reboot ${IDS.vpsRunning}: rebooted (reboot), because its reboot triggers changed`);
  expect(h.sim.state.server(IDS.vpsRunning).bootCount).toBe(1);
});

test('hard reboot uses reset', async () => {
  await h.run('apply', rebootDoc(IDS.vpsRunning, true), { env: LATER });
  expect(h.sim.executed({ kind: 'action' }).map((w) => w.detail)).toEqual(['reset']);
});

test('a stopped server is not rebooted', async () => {
  const run = await h.run('apply', rebootDoc(IDS.vpsStopped), { env: LATER });
  expect(run.stdout.at(-1)).toBe(`warning: reboot ${IDS.vpsStopped}: the server is stopped, so it was not rebooted`);
  expect(run.writes).toEqual([]);
});

test('an unknown outcome is reported, not retried: never two reboots', async () => {
  h.sim.addFault({ endpoint: 'POST /servers/{serverId}/actions', times: 1, effect: { type: 'operation', outcome: { status: 'outcome_unknown', takesEffect: true } } });
  const run = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(run.code).toBe(0);
  expect(run.stdout.at(-1)).toMatch(/^warning: reboot vps_web_1: the reboot was sent but not confirmed \(.*outcome_unknown.*\); it is not repeated, to avoid a second reboot: check the server$/);
  expect(h.sim.executed({ kind: 'action' })).toHaveLength(1);
});

test('without the plan timestamps the handler refuses to guess', async () => {
  const run = await h.run('apply', rebootDoc(IDS.vpsRunning));
  expect(run.code).toBe(1);
  expect(run.requests).toEqual([]);
});

test('refusals an earlier run left under its keys are walked past: the next run reboots once, under a key of its own', async () => {
  // Run 1 reads the server from a shared cache as running while it is stopped: each reboot it sends
  // is refused 409, and the API stores the refusal under that attempt's key.
  h.sim.addFault({ endpoint: 'GET /servers/{serverId}', effect: { type: 'cache', maxAgeSeconds: 60 } });
  expect((await h.run('plan', powerDoc(IDS.vpsRunning, 'running'))).code).toBe(0);
  h.sim.drift(IDS.vpsRunning, { power: 'stopped' });
  const refused = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(refused.code).toBe(1);
  h.sim.clearFaults();
  h.sim.drift(IDS.vpsRunning, { power: 'running' });
  const run = await h.run('apply', rebootDoc(IDS.vpsRunning), { env: LATER });
  expect(run.code).toBe(0);
  expect(run.stdout.at(-1)).toBe(`warning: reboot ${IDS.vpsRunning}: rebooted (reboot), because its reboot triggers changed`);
  expect(h.sim.executed({ kind: 'action' }).map((a) => a.detail)).toEqual(['reboot']);
  expect(h.sim.state.server(IDS.vpsRunning).bootCount).toBe(1);
});
