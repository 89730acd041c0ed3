import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostingApiError } from '../../src/api';
import { diagnosticOf, ERROR, type Diagnostic } from '../../src/provider/diagnostics';
import { UNKNOWN } from '../../src/provider/plugin/values';
import { ipSettingsResource } from '../../src/provider/resources/ip-settings';
import { plannedWithoutReads } from '../../src/provider/resources/plan-without-reads';
import { powerStateResource } from '../../src/provider/resources/power-state';
import type { ObjectValue } from '../../src/provider/resources/resource';
import { serverFirewallResource } from '../../src/provider/resources/server-firewall';
import { createRunRefusals, refusalsSaid } from '../../src/provider/run/refusals';
import { terraformInvocation, walkProof, type TerraformInvocation } from '../../src/provider/run/walk';
import { ReconcileError } from '../../src/reconcile/reconcile-error';
import { SEED_SERVER_IDS } from '../../src/simulator';
import { firewall, power, useTwoAccounts } from '../helpers/two-accounts';

const URL = 'https://api.example.com/api/v1';
const apiError = (code: string, status: number, requestId?: string) => new HostingApiError({ status, code: code as any, method: 'GET', path: '/servers', detail: code === 'network_error' ? 'connection refused, 4 times in 3.1 s' : 'the token is revoked', requestId });
const failure = (err: HostingApiError) => new ReconcileError(`firewall vps_web_1: ${err.detail}`, 'check the token', err);
const told = (err: unknown): Diagnostic => diagnosticOf(err, (t) => t);

describe('a run-wide refusal, in the words the run met it first', () => {
  test('a refused token: every resource reports the first refusal, naming the variable and the API, and a short line for a repeat', () => {
    const refusals = createRunRefusals('HOSTING_API_TOKEN', URL);
    const [first, second] = [told(refusals.reported(failure(apiError('unauthorized', 401, 'req_1')))), told(refusals.reported(failure(apiError('unauthorized', 401, 'req_2'))))];
    expect(first).toEqual(second);
    expect(first.summary).toBe(`the token in HOSTING_API_TOKEN was refused by ${URL} (401 unauthorized, request id req_1): the token is revoked`);
    expect(first.again).toBe('the token in HOSTING_API_TOKEN was refused (the first error says how)');
    expect(() => refusals.check()).toThrow(ReconcileError);
  });

  test('an API nothing answers at says where its address came from', () => {
    const unreachable = new ReconcileError('x', 'the API could not be reached; check HOSTING_API_URL and the network, then run the apply again.', apiError('network_error', 0));
    expect((createRunRefusals('T', URL, 'base_url in the provider "hosting" block').reported(unreachable) as ReconcileError).hint).toBe('the API could not be reached; check base_url in the provider "hosting" block and the network, then run the apply again.');
    expect((createRunRefusals('T', URL).reported(unreachable) as ReconcileError).hint).toContain('check HOSTING_API_URL and');
  });

  test('an API nothing answers at names its address; a failure of one resource is reported as it is', () => {
    const refusals = createRunRefusals('TOKEN', URL);
    const notFound = failure(apiError('not_found', 404));
    expect(refusals.reported(notFound)).toBe(notFound);
    expect(() => refusals.check()).not.toThrow();
    const unreachable = told(refusals.reported(failure(apiError('network_error', 0))));
    expect([unreachable.summary, unreachable.again]).toEqual([`the API at ${URL} could not be reached: connection refused, 4 times in 3.1 s`, `the API at ${URL} could not be reached (the first error says how)`]);
  });

  test('an API that answered only "unavailable" says what to do, that nothing changed, and points a repeat at the first error', () => {
    const down = new HostingApiError({ status: 503, code: 'temporarily_unavailable', method: 'GET', path: '/servers', detail: 'maintenance, 6 times in 15.2 s', apiDown: true });
    const said = told(createRunRefusals('TOKEN', URL).reported(failure(down)));
    expect([said.summary, said.again]).toEqual([`the API at ${URL} is unavailable: maintenance, 6 times in 15.2 s`, `the API at ${URL} is unavailable (the first error says how)`]);
    expect(said.detail).toContain('nothing was changed; run again once the API answers');
  });
});

describe('the refusals and the walk\'s other parts, one rule each', () => {
  test('a refusal of another kind than the first is told in its own words', () => {
    const refusals = createRunRefusals('HOSTING_API_TOKEN', URL);
    refusals.reported(failure(apiError('unauthorized', 401, 'req_1')));
    expect(told(refusals.reported(failure(apiError('network_error', 0)))).summary).toBe(`the API at ${URL} could not be reached: connection refused, 4 times in 3.1 s`);
  });

  test('a warning said once stays a warning when said again: only an error becomes the short line', () => {
    const said = refusalsSaid();
    const warning: Diagnostic = { severity: 2, summary: 'the apply needs a token with network:write', once: 'scopes network:write', again: 'short' };
    said.sayOnce([warning], false);
    expect(said.sayOnce([warning], false).diagnostics).toEqual([warning]);
  });
});

describe('what each walk says of a refusal said already', () => {
  const refusal = told(createRunRefusals('HOSTING_API_TOKEN', URL).reported(failure(apiError('unauthorized', 401, 'req_1'))));
  const scope: Diagnostic = { severity: ERROR, summary: 'firewall vps_web_2: token "ci" lacks network:write', once: 'token lacks network:write' };
  const warning: Diagnostic = { severity: 2, summary: 'a warning' };
  // [walk, plansOnly, what the second resource to meet each sends, whether the answer stands in with a plan]
  test.each<[string, boolean, Diagnostic[], Diagnostic[], boolean]>([
    ['a refresh, a plan walk or an import (plans only)', true, [refusal, warning], [warning], true],
    ['a plan that may be the apply\'s re-plan', false, [refusal], [{ severity: ERROR, summary: refusal.again!, attribute: undefined, once: refusal.once }], false],
    ['an apply', false, [refusal], [{ severity: ERROR, summary: refusal.again!, attribute: undefined, once: refusal.once }], false],
    ['a destroy (a removal is an apply with no planned state)', false, [refusal], [{ severity: ERROR, summary: refusal.again!, attribute: undefined, once: refusal.once }], false],
    ['a scope the token lacks, at plan', true, [scope], [], true],
    ['a scope the token lacks, where the walk may apply: each says its own', false, [scope], [scope], false],
  ])('%s', (_walk, plansOnly, second, expected, withheld) => {
    const said = refusalsSaid();
    expect(said.sayOnce(second, plansOnly).diagnostics).toEqual(second);
    expect(said.sayOnce(second, plansOnly)).toEqual({ diagnostics: expected, withheld });
  });
});

describe('which walk a process serves', () => {
  const proc = mkdtempSync(join(tmpdir(), 'proc-'));
  afterAll(() => rmSync(proc, { recursive: true, force: true }));
  const invocationOf = (args: string[]) => {
    mkdirSync(join(proc, '42'), { recursive: true });
    writeFileSync(join(proc, '42', 'cmdline'), `${args.join('\0')}\0`);
    return terraformInvocation(42, proc);
  };
  test.each<[string[], TerraformInvocation | undefined, boolean]>([
    [['terraform', 'plan', '-out=tfplan'], { command: 'plan' }, true],
    [['terraform', '-chdir=stacks/web', 'plan'], { command: 'plan' }, true],
    [['terraform', 'apply', '-auto-approve'], { command: 'apply', savedPlan: false }, false],
    [['terraform', 'apply', 'tfplan'], { command: 'apply', savedPlan: true }, false],
    [['terraform', 'apply', '-var', 'name=web', '-target=hosting_power_state.p', '-refresh=false'], { command: 'apply', savedPlan: false }, false],
    [['terraform', 'apply', '-var', 'name=web', '--parallelism', '4', 'tfplan'], { command: 'apply', savedPlan: true }, false],
    [['terraform', 'apply', '-input=false', '--', 'tfplan'], { command: 'apply', savedPlan: true }, false],
    // An option not known here may take the next argument: whether a plan file follows is not told.
    [['terraform', 'apply', '-some-new-option', 'value'], { command: 'apply', savedPlan: undefined }, false],
    // An option's value given after `=` takes no next argument; `--` at the end names no plan; a lone `-` is an argument (Go's flag rules).
    [['terraform', 'apply', '-var=name=web', 'tfplan'], { command: 'apply', savedPlan: true }, false],
    [['terraform', 'apply', '-auto-approve', '--'], { command: 'apply', savedPlan: false }, false],
    [['terraform', 'apply', '-'], { command: 'apply', savedPlan: true }, false],
    // No command at all: nothing is told.
    [['terraform', '-chdir=stacks/web'], undefined, false],
    [['terraform', 'test'], { command: 'test' }, false],
    [['terraform', 'import', 'hosting_power_state.p', 'vps_web_1'], { command: 'import' }, true],
  ])('%j: %j, plans only: %s', (args, invocation, plansOnly) => {
    expect(invocationOf(args)).toEqual(invocation);
    expect(walkProof(invocation).plansOnly()).toBe(plansOnly);
  });
  test('where plan and apply are one terraform run, a change no earlier process planned is no re-plan; a saved plan\'s apply proves nothing', () => {
    const planned = new Set<string>(['hosting_server_firewall vps_web_1']);
    const changes = { plannedChange: (c: string) => void planned.add(c), mayHavePlanned: (c: string) => planned.has(c) };
    const proves = (invocation: TerraformInvocation | undefined, change: string) => walkProof(invocation, changes).plansAnew(change);
    for (const invocation of [{ command: 'apply', savedPlan: false }, { command: 'test' }]) {
      expect(proves(invocation, 'hosting_power_state vps_web_1')).toBe(true);
      expect(proves(invocation, 'hosting_server_firewall vps_web_1')).toBe(false);
      expect(walkProof(invocation, changes).plansOnly()).toBe(false);
    }
    // A saved plan was made by another run, an option not known here may have named one, and no command line tells nothing.
    for (const invocation of [{ command: 'apply', savedPlan: true }, { command: 'apply' }, { command: 'destroy' }, undefined]) {
      expect(proves(invocation, 'hosting_power_state vps_web_1')).toBe(false);
    }
    // What a process planned without an error is recorded for the processes after it.
    walkProof({ command: 'test' }, changes).planned('hosting_power_state vps_web_2');
    expect(planned.has('hosting_power_state vps_web_2')).toBe(true);
  });
  test('a refresh proves a plan walk; no command line proves nothing', () => {
    expect(terraformInvocation(43, proc)).toBeUndefined();
    const walk = walkProof(undefined);
    expect(walk.plansOnly()).toBe(false);
    walk.refreshed();
    expect(walk.plansOnly()).toBe(true);
  });
});

describe('the plan a refusal said elsewhere stands in for: no change the configuration did not ask for', () => {
  const fw = (over: ObjectValue): ObjectValue => ({ id: null, server_id: 'vps_web_1', enabled: null, rulesets: null, ruleset_names: null, applied_rulesets: null, on_destroy: null, expect_takeover: null, changed_since_plan: null, ...over });
  const prior = fw({ id: 'vps_web_1', enabled: true, rulesets: [2, 1], applied_rulesets: [1, 2] });
  test.each<[string, ObjectValue | null, ObjectValue, ObjectValue, string[]]>([
    ['unchanged (a set in another order): the prior state', prior, fw({ enabled: true, rulesets: [1, 2] }), prior, []],
    ['unchanged, an optional computed value unset: the prior state', prior, fw({ rulesets: [1, 2] }), prior, []],
    ['changed: the configuration, what the server decides unknown', prior, fw({ enabled: false, rulesets: [1, 2] }), { ...prior, enabled: false, rulesets: [1, 2], applied_rulesets: UNKNOWN }, []],
    ['changed rule sets of the same size: the configuration', prior, fw({ enabled: true, rulesets: [1, 3] }), { ...prior, rulesets: [1, 3], applied_rulesets: UNKNOWN }, []],
    ['a create: computed values unknown', null, fw({ enabled: true }), fw({ id: UNKNOWN, enabled: true, rulesets: UNKNOWN, applied_rulesets: UNKNOWN }), []],
    ['another server: replaced, the id unknown', prior, fw({ server_id: 'vps_web_2', enabled: true }), fw({ id: UNKNOWN, server_id: 'vps_web_2', enabled: true, rulesets: [2, 1], applied_rulesets: UNKNOWN }), ['server_id']],
  ])('hosting_server_firewall, %s', (_name, before, config, planned, requiresReplace) => {
    expect(plannedWithoutReads(serverFirewallResource, before, config)).toEqual({ planned, requiresReplace });
  });
  test('hosting_ip_settings and hosting_power_state, unchanged: the prior state', () => {
    const ip: ObjectValue = { id: 'ded_x/203.0.113.10', server_id: 'ded_x', ip: '203.0.113.10', rdns: 'a.example.com', description: 'web', protection: { layer4: 'permanent', layer7: 'only' }, on_destroy: null, expect_takeover: true, changed_since_plan: null };
    expect(plannedWithoutReads(ipSettingsResource, ip, { ...ip, id: null, rdns: null, description: null }).planned).toBe(ip);
    const pw: ObjectValue = { ...power().config, id: 'vps_web_1', reboot_generation: 0 };
    expect(plannedWithoutReads(powerStateResource, pw, { ...pw, id: null, reboot_generation: null }).planned).toBe(pw);
  });
});

describe('through the resource RPCs, with Terraform\'s rules checked on every answer (protocol driver)', () => {
  const t = useTwoAccounts();
  const stack = { pw: power({ reboot_triggers: { v: '1' } }), fw_a: firewall('a', { enabled: false, rulesets: [1], expect_takeover: true }), fw_b: firewall('b', { enabled: true, expect_takeover: true }) };

  test('a saved plan applied with a rotated token: each resource fails (the first in full), nothing is written, every answer keeps the rules', async () => {
    const writes = t.a.executed().length;
    const run = await t.driver.apply(stack, { betweenPlanAndApply: () => void (t.accounts.a.token = 'hsim_rotated_away') });
    expect(run.errors.filter((e) => e.startsWith('the token in HOSTING_API_TOKEN was refused by'))).toHaveLength(1);
    expect(run.errors.filter((e) => e === 'the token in HOSTING_API_TOKEN was refused (the first error says how)')).toHaveLength(1);
    expect(t.a.executed()).toHaveLength(writes);
    // Account b's token still works: its firewall is created.
    expect(t.driver.state.has('fw_b')).toBe(true);
  });

  test('a terraform apply whose token is refused from its apply walk on (revoked at the approval prompt): each create fails, none is planned without reads', async () => {
    const writes = t.a.executed().length;
    const run = await t.driver.apply(stack, { refuseFromRpc: { rpc: 1, walk: 'apply', effect: { type: 'error', status: 401, code: 'unauthorized' } } });
    // The driver checks every answer against Terraform's rules: a create planned without reads would be "a bug in the provider".
    expect(run.errors.filter((e) => e.startsWith('the token in HOSTING_API_TOKEN was refused by'))).toHaveLength(2);
    expect(run.errors.filter((e) => e === 'the token in HOSTING_API_TOKEN was refused (the first error says how)')).toHaveLength(1);
    expect(t.a.executed()).toHaveLength(writes);
  });

  test('a first deploy through terraform apply with two provider configurations, both tokens refused: one error each, whatever the number of creates', async () => {
    t.accounts.a.token = 'hsim_rotated_away';
    t.accounts.b.token = 'hsim_rotated_away';
    const run = await t.driver.apply({ ...stack, pw_b: { ...power(), provider: 'b' } });
    // The second configuration's process sees the first one running: it serves the same plan walk, so proves nothing against it.
    expect(run.errors).toEqual([expect.stringMatching(/^the token in HOSTING_API_TOKEN was refused by /), expect.stringMatching(/^the token in HOSTING_API_TOKEN was refused by /)]);
  });

  test('terraform test, a first run block of creates with a refused token: one error for the account, whatever the number of creates', async () => {
    t.accounts.a.token = 'hsim_rotated_away';
    const run = await t.driver.terraformTest(() => t.driver.apply({ ...stack, fw_c: firewall('a', { server_id: SEED_SERVER_IDS.vdsRunning, enabled: true, expect_takeover: true }) }));
    expect(run.errors).toEqual([expect.stringMatching(/^the token in HOSTING_API_TOKEN was refused by /)]);
  });

  test('a refused token at plan, resources in state: one error, and the failed plan changes nothing', async () => {
    expect((await t.driver.apply(stack)).errors).toEqual([]);
    t.accounts.a.token = 'hsim_rotated_away';
    const before = t.a.requests.length;
    const run = await t.driver.plan(stack);
    expect(run.errors).toEqual([expect.stringMatching(/^the token in HOSTING_API_TOKEN was refused by /)]);
    expect(t.a.requests.length - before).toBe(1);
  });

  test('an API answering only "unavailable" at plan: one error in some 15 s naming it, asked by one request at a time', async () => {
    expect((await t.driver.apply(stack)).errors).toEqual([]);
    t.a.addFault({ effect: { type: 'error', status: 503, code: 'temporarily_unavailable' } });
    const [before, started] = [t.a.requests.length, t.clock.now()];
    const run = await t.driver.plan(stack);
    expect(run.errors).toEqual([expect.stringMatching(/^the API at http:\/\/127\.0\.0\.1:\d+\/api\/v1 is unavailable: .* 6 times in \d+\.\d s, and no other answer yet: the API is down or in maintenance$/)]);
    expect(t.a.requests.length - before).toBe(6);
    expect(t.clock.now() - started).toBeLessThan(20_000);
  });
});
