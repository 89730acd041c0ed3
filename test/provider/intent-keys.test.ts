import { decodeValue } from '../../src/provider/plugin/values';
import { APPLY_REBOOTS, APPLY_STARTS_INSTEAD } from '../../src/provider/resources/effects';
import { resourceRpcs } from '../../src/provider/resources/rpcs';
import { firewall, power, reboots, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * The ways keys and kept reads followed something other than the user's intent (issue 46 §1),
 * each driven as Terraform drives the provider (test/helpers/protocol-driver.ts). Each failed on the
 * keys of apply_id + configuration and process-id run notes.
 */
const t = useTwoAccounts();
const slowReboots = () => t.a.setOperationDelays({ runningMs: 6_000 });

describe('a setting edit never reboots again', () => {
  test('raising the timeout after a reboot outlived it does not reboot a second time', async () => {
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' }, operation_timeout_seconds: 2 }) })).errors).toEqual([]);
    slowReboots();
    const timedOut = await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' }, operation_timeout_seconds: 2 }) });
    expect(timedOut.errors).toEqual([expect.stringContaining('did not finish within 2s')]);
    // The state says what the account got: the reboot for v2 was sent.
    expect(t.driver.state.get('pw')!.value).toMatchObject({ reboot_triggers: { v: '2' }, reboot_generation: 1 });
    const raised = await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' }, operation_timeout_seconds: 60 }) });
    expect(raised.errors).toEqual([]);
    t.clock.advance(10_000);
    expect(reboots(t.a)).toBe(1);
  });

  test('a provider killed mid-reboot, then any edit of the block: the re-run replays the reboot', async () => {
    await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' } }) });
    const killed = await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' } }) }, { crashOn: 'pw' });
    expect(killed.crashed).toBe(true);
    expect(t.driver.state.get('pw')!.value).toMatchObject({ reboot_triggers: { v: '1' }, reboot_generation: 0 });
    const edited = await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' }, operation_timeout_seconds: 120, ready_timeout_seconds: 30 }) });
    expect(edited.errors).toEqual([]);
    expect(edited.warnings.filter((w) => w !== APPLY_REBOOTS)).toEqual([expect.stringContaining('rebooted by an earlier, interrupted run')]);
    expect(reboots(t.a)).toBe(1);
  });

  test('a re-run that fails after the API answered with the killed run\'s reboot wrote nothing: the state stays as it was', async () => {
    await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' } }) });
    await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' } }) }, { crashOn: 'pw' });
    const before = t.driver.state.get('pw')!;
    t.a.addFault({ endpoint: 'GET /servers/{serverId}/operations/{operationId}', effect: { type: 'error', status: 503, code: 'unavailable' } });
    const failed = await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' } }) });
    t.a.clearFaults();
    expect(failed.errors).not.toEqual([]);
    // Private data as Terraform stores it: none and no bytes are the same.
    const stored = ({ value, private: bytes }: { value: unknown; private?: Uint8Array }) => ({ value, private: Buffer.from(bytes ?? []).toString() });
    expect(stored(t.driver.state.get('pw')!)).toEqual(stored(before));
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' } }) })).errors).toEqual([]);
    expect(reboots(t.a)).toBe(1);
  });
});

test('a rollback then a re-deploy reboots for each change the account got', async () => {
  await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' }, operation_timeout_seconds: 2 }) });
  slowReboots();
  expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' }, operation_timeout_seconds: 2 }) })).errors).toHaveLength(1);
  t.clock.advance(10_000);
  t.a.setOperationDelays({ runningMs: 0 });
  // The account got v2's reboot: going back to v1 is a change, and v2 again is another.
  expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' }, operation_timeout_seconds: 2 }) })).changes).toEqual({ pw: 'update' });
  expect(reboots(t.a)).toBe(2);
  expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' }, operation_timeout_seconds: 2 }) })).errors).toEqual([]);
  expect(reboots(t.a)).toBe(3);
  expect(t.driver.state.get('pw')!.value).toMatchObject({ reboot_triggers: { v: '2' }, reboot_generation: 3 });
});

test('every replace of a restoring firewall applies, however many there are', async () => {
  const fw = { fw: firewall('a', { enabled: true, rulesets: [1], on_destroy: 'restore', expect_takeover: true }) };
  expect((await t.driver.apply(fw)).errors).toEqual([]);
  for (let replace = 1; replace <= 5; replace++) {
    const outcome = await t.driver.apply(fw, { replace: ['fw'] });
    expect([replace, outcome.errors]).toEqual([replace, []]);
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [1] });
  }
});

test('two aliases on two accounts with the same server ids: each is read, warned of and restored from its own account', async () => {
  t.b.drift(SERVER, { firewall: { enabled: true, rulesets: [2, 3] } });
  const both = { staging: firewall('a', { enabled: true, rulesets: [1], on_destroy: 'restore' }), production: firewall('b', { enabled: true, rulesets: [1], on_destroy: 'restore' }) };
  const created = await t.driver.apply(both);
  expect(created.errors).toEqual([]);
  // Said by the plan and again by the apply's plan of each change.
  expect(created.details.map((d) => d.replace(/\. Once reviewed.*/, '')).sort()).toEqual([
    `The apply changes the firewall of ${SERVER}: enabled false -> true; rulesets [] -> [1]`,
    `The apply changes the firewall of ${SERVER}: enabled false -> true; rulesets [] -> [1]`,
    `The apply changes the firewall of ${SERVER}: rulesets [2, 3] -> [1]`,
    `The apply changes the firewall of ${SERVER}: rulesets [2, 3] -> [1]`,
  ]);
  expect((await t.driver.apply({})).errors).toEqual([]);
  expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: false, rulesets: [] });
  expect(t.b.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [2, 3] });
});

test('a state written with apply_id (the release before) upgrades without it, and its next plan shows no change', async () => {
  const rpcs = resourceRpcs({ session: () => { throw new Error('no session needed'); }, scrub: (text) => text });
  const stored = { id: SERVER, server_id: SERVER, state: 'running', stop_method: null, force_stop_fallback: null, reboot_triggers: { v: '1' }, hard_reboot: null, ready_timeout_seconds: null, operation_timeout_seconds: null, expect_takeover: null, apply_id: 'Q8xL5yPZBtaCgAN_' };
  const upgraded = await rpcs.UpgradeResourceState({ type_name: 'hosting_power_state', version: 0, raw_state: { json: Buffer.from(JSON.stringify(stored)) } }, () => undefined) as { upgraded_state: { msgpack: Uint8Array } };
  const state = decodeValue(upgraded.upgraded_state.msgpack) as Record<string, unknown>;
  expect(state).not.toHaveProperty('apply_id');
  expect(state.reboot_generation).toBeNull();
  // The driver plans from that state as Terraform would: nothing to do.
  t.driver.state.set('pw', { type: 'hosting_power_state', provider: 'a', value: state as never });
  expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' } }) })).changes).toEqual({});
});

test('a change of settings that touch nothing on the server is no warning, and its apply writes nothing, even after the server moved since the plan', async () => {
  const fw = (over = {}) => ({ fw: firewall('a', { enabled: true, rulesets: [1], expect_takeover: true, ...over }), pw: power({ reboot_triggers: { v: '1' } }) });
  expect((await t.driver.apply(fw())).errors).toEqual([]);
  const writes = t.a.executed({ serverId: SERVER }).length;
  const pw = power({ reboot_triggers: { v: '1' }, operation_timeout_seconds: 90, hard_reboot: true });
  const moved = () => t.a.drift(SERVER, { firewall: { enabled: false }, power: 'stopped' });
  const edited = await t.driver.apply({ ...fw({ on_destroy: 'restore' }), pw }, { betweenPlanAndApply: moved });
  expect(edited.changes).toEqual({ fw: 'update', pw: 'update' });
  expect([edited.errors, edited.warnings]).toEqual([[], []]);
  expect(t.a.executed({ serverId: SERVER }).length).toBe(writes);
  // The next plan shows what moved, and its apply puts it back.
  const next = await t.driver.apply({ ...fw({ on_destroy: 'restore' }), pw });
  expect(next.changes).toEqual({ fw: 'update', pw: 'update' });
  expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [1] });
  expect(t.a.state.server(SERVER).server.power).toBe('running');
});

describe('a change of reboot_triggers, said at plan', () => {
  test('a running server: the plan says the apply reboots it, and the apply reboots it once without a warning', async () => {
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' } }) })).errors).toEqual([]);
    const planned = await t.driver.plan({ pw: power({ reboot_triggers: { v: '2' } }) });
    expect(planned.warnings).toEqual([APPLY_REBOOTS]);
    expect(planned.details).toEqual([`The apply reboots ${SERVER} once (reboot, through the operating system). If this plan replaces the power state instead (-/+), it is created, and creating one never reboots.`]);
    const applied = await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' } }) });
    expect(applied.errors).toEqual([]);
    expect(applied.warnings.filter((w) => w !== APPLY_REBOOTS)).toEqual([]);
    expect(reboots(t.a)).toBe(1);
  });

  test('a server stopped by hand that is to run: the plan says the apply starts it instead, and the apply starts it and does not reboot it', async () => {
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' } }) })).errors).toEqual([]);
    t.a.drift(SERVER, { power: 'stopped' });
    const next = { pw: power({ reboot_triggers: { v: '2' } }) };
    const planned = await t.driver.plan(next);
    expect(planned.errors).toEqual([]);
    expect(planned.warnings).toEqual([APPLY_STARTS_INSTEAD]);
    // The plan showed the server stopped: the start is no change since the plan.
    expect((await t.driver.apply(next)).appliedWarnings).toEqual([]);
    const actions = t.a.executed({ serverId: SERVER, kind: 'action' }).map((w) => w.detail);
    expect(actions.slice(-1)).toEqual(['start']);
    expect(reboots(t.a)).toBe(0);
    expect((await t.driver.plan(next)).changes).toEqual({});
  });

  test.each([
    ['between a saved plan and its apply', { betweenPlanAndApply: () => t.a.drift(SERVER, { power: 'stopped' }) }],
    ['between the apply walk\'s plan and its apply', { beforeApplyOf: () => t.a.drift(SERVER, { power: 'stopped' }) }],
  ])('a server stopped by hand %s: the apply starts it, names it, and does not wait for it to run', async (_when, options) => {
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' } }) })).errors).toEqual([]);
    const startedAt = t.clock.now();
    const applied = await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' } }) }, options);
    expect(applied.errors).toEqual([]);
    expect(applied.appliedWarnings).toEqual([`power ${SERVER}: changed since the plan: state "running" -> "stopped" (set back to "running")`]);
    expect(t.clock.now() - startedAt).toBeLessThan(2_000);
    expect(t.a.executed({ serverId: SERVER, kind: 'action' }).map((w) => w.detail).slice(-1)).toEqual(['start']);
    expect(reboots(t.a)).toBe(0);
    expect(t.a.state.server(SERVER).server.power).toBe('running');
  });

  test('a server started by hand after a saved plan that keeps it stopped: the apply stops it again and names it', async () => {
    expect((await t.driver.apply({ pw: power({ state: 'stopped', reboot_triggers: { v: '1' } }) })).errors).toEqual([]);
    const applied = await t.driver.apply({ pw: power({ state: 'stopped', reboot_triggers: { v: '2' } }) }, {
      betweenPlanAndApply: () => t.a.drift(SERVER, { power: 'running' }),
    });
    expect(applied.errors).toEqual([]);
    expect(applied.appliedWarnings).toEqual([`power ${SERVER}: changed since the plan: state "stopped" -> "running" (set back to "stopped")`]);
    expect(t.a.state.server(SERVER).server.power).toBe('stopped');
    expect(reboots(t.a)).toBe(0);
  });

  test('a power that became unknown since the plan is not named as a change: the apply waits for it, then says so', async () => {
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' }, ready_timeout_seconds: 5 }) })).errors).toEqual([]);
    const applied = await t.driver.apply({ pw: power({ reboot_triggers: { v: '2' }, ready_timeout_seconds: 5 }) }, {
      betweenPlanAndApply: () => t.a.drift(SERVER, { power: 'unknown' }),
    });
    expect(applied.errors).toEqual([expect.stringContaining('still waiting after 5s: its power state is unknown')]);
    expect([...applied.errors, ...applied.warnings].join('\n')).not.toMatch(/changed since the plan/);
  });

  test('hard_reboot: the plan says the apply resets the server, and it does, once', async () => {
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' }, hard_reboot: true }) })).errors).toEqual([]);
    const next = { pw: power({ reboot_triggers: { v: '2' }, hard_reboot: true }) };
    expect((await t.driver.plan(next)).details).toEqual([expect.stringContaining(`The apply reboots ${SERVER} once (reset, hard_reboot).`)]);
    expect((await t.driver.apply(next)).errors).toEqual([]);
    expect(t.a.executed({ serverId: SERVER, kind: 'action' }).map((w) => w.detail).slice(-1)).toEqual(['reset']);
  });

  test('a server whose power is unknown: the plan reads no more than the list and says nothing of an action', async () => {
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' } }) })).errors).toEqual([]);
    t.a.drift(SERVER, { power: 'unknown' });
    const before = t.a.requests.length;
    const planned = await t.driver.plan({ pw: power({ reboot_triggers: { v: '2' } }) });
    expect([planned.errors, planned.warnings]).toEqual([[], []]);
    expect(t.a.requests.slice(before).map((r) => r.endpoint)).not.toContain('GET /servers/{serverId}');
  });

  test('a server to be stopped: the plan says no reboot, and the apply stops it without waiting for it to run or warning', async () => {
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' } }) })).errors).toEqual([]);
    const next = { pw: power({ state: 'stopped', reboot_triggers: { v: '2' } }) };
    const before = t.a.requests.length;
    expect((await t.driver.plan(next)).warnings).toEqual([]);
    // The stop is checked at plan: the server's offered actions are read.
    expect(t.a.requests.slice(before).map((r) => r.endpoint)).toContain('GET /servers/{serverId}');
    const startedAt = t.clock.now();
    const applied = await t.driver.apply(next);
    expect([applied.errors, applied.warnings]).toEqual([[], []]);
    expect(t.clock.now() - startedAt).toBeLessThan(2_000);
    expect(t.a.executed({ serverId: SERVER, kind: 'action' }).map((w) => w.detail).slice(-1)).toEqual(['shutdown']);
    expect(reboots(t.a)).toBe(0);
    expect((await t.driver.plan(next)).changes).toEqual({});
  });
});


