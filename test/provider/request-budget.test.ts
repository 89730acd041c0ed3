import { SEED_DEDICATED_IPS, SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { firewall, ipSettings, power, useTwoAccounts } from '../helpers/two-accounts';

/*
 * Issue 74 §2, the request budget, counted through the protocol driver (a new process per walk, as
 * Terraform runs them): the server list once per process however many power states an apply
 * changes, and no plan-time read for a create whose takeover was reviewed.
 */
const t = useTwoAccounts();
const requestsTo = (endpoint: string) => t.a.requests.filter((r) => r.endpoint === endpoint).length;

test('an apply that changes four power states reads the server list once per walk', async () => {
  const servers = [IDS.vpsRunning, IDS.vdsRunning, IDS.vpsStopped, IDS.dedicatedStopped];
  const initial = servers.map((id) => t.a.state.server(id).server.power);
  const at = (flip: boolean) => Object.fromEntries(servers.map((id, i) => [`pw${i}`, { ...power({ server_id: id, state: flip === (initial[i] === 'running') ? 'stopped' : 'running' }) }]));
  expect((await t.driver.apply(at(false))).errors).toEqual([]);
  const before = requestsTo('GET /servers');
  const run = await t.driver.apply(at(true));
  expect(run.errors).toEqual([]);
  expect(Object.values(run.changes)).toEqual(['update', 'update', 'update', 'update']);
  // The plan walk's and the apply walk's processes: one list each.
  expect(requestsTo('GET /servers') - before).toBe(2);
});

test.each([[true, 2], [false, 3]])('a created firewall with expect_takeover = %s costs %i firewall requests: the plan reads only what it warns of', async (reviewed, requests) => {
  const before = requestsTo('GET /servers/{serverId}/firewall') + requestsTo('PUT /servers/{serverId}/firewall');
  const run = await t.driver.apply({ fw: firewall('a', { enabled: true, rulesets: [1, 2], expect_takeover: reviewed }) });
  expect(run.errors).toEqual([]);
  // Each walk says the takeover (Terraform folds the two).
  expect(run.warnings.length).toBe(reviewed ? 0 : 2);
  expect(requestsTo('GET /servers/{serverId}/firewall') + requestsTo('PUT /servers/{serverId}/firewall') - before).toBe(requests);
});

test('a power change reads its server once in the apply walk, beside the action, its polls and one confirming read', async () => {
  const pw = (state: string) => ({ pw: power({ server_id: IDS.vdsRunning, state }) });
  expect((await t.driver.apply(pw('running'))).errors).toEqual([]);
  const reads = () => requestsTo('GET /servers/{serverId}');
  const before = reads();
  const run = await t.driver.apply(pw('stopped'));
  expect(run.errors).toEqual([]);
  expect(t.a.state.server(IDS.vdsRunning).server.power).toBe('stopped');
  // The plan walk's check (1); the apply walk's plan (1), whose read its apply starts from; the confirming read (1).
  expect(reads() - before).toBe(3);
});

test('a reboot reads its server once in the apply, and starts from that read', async () => {
  const pw = (v: string) => ({ pw: power({ server_id: IDS.vdsRunning, reboot_triggers: { v } }) });
  expect((await t.driver.apply(pw('1'))).errors).toEqual([]);
  const reads = () => requestsTo('GET /servers/{serverId}');
  const before = reads();
  const run = await t.driver.apply(pw('2'));
  expect(run.errors).toEqual([]);
  // The plan walk's check (1), the apply walk's plan (1), the apply's own read, which the reboot starts from (1), the confirming read (1).
  expect(reads() - before).toBe(4);
});

test('a created IP settings resource is read at plan even with expect_takeover = true: a field the token may not edit is refused there', async () => {
  const reads = () => requestsTo('GET /servers/{serverId}/ips/{ip}');
  const before = reads();
  const locked = await t.driver.apply({ ip: ipSettings({ ip: SEED_DEDICATED_IPS.locked, rdns: 'mine.example.com', expect_takeover: true }) });
  expect(locked.errors).toEqual([expect.stringContaining('rdns is not editable for this address')]);
  // The plan walk's read refused it: nothing was applied.
  expect(reads() - before).toBe(1);
  expect(t.a.executed({ kind: 'ip_settings' })).toEqual([]);
});

test('a reboot that waits out an operation in flight starts from the read that saw it end', async () => {
  const pw = (v: string) => ({ pw: power({ server_id: IDS.vdsRunning, reboot_triggers: { v }, operation_timeout_seconds: 2 }) });
  t.a.setOperationDelays({ runningMs: 6_000 });
  expect((await t.driver.apply(pw('1'))).errors).toEqual([]);
  // The reboot outlives its timeout: the next apply finds it in flight.
  expect((await t.driver.apply(pw('2'))).errors).toEqual([expect.stringContaining('did not finish within 2s')]);
  await t.driver.apply(pw('3'));
  const apply = t.driver.requests.find((r) => r.rpc === 'ApplyResourceChange')!;
  const endpoints = apply.answers.map((a) => a.endpoint).filter((e) => !e.endsWith('/operations/{operationId}'));
  // Its read, the read once the operation ended, the reboot, and nothing read between.
  expect(endpoints).toEqual(['GET /servers/{serverId}', 'GET /servers/{serverId}', 'POST /servers/{serverId}/actions']);
});
