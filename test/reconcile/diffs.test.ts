import type { IpSettings, Server, ServerDetail } from '../../src/api';
import { diffFirewall, diffIpSettings, isFirstCreation, movedFirewall, powerActionFor, readiness, ReconcileError, refuseRenamedRulesets, resolveRulesets } from '../../src/reconcile';
import { movedIpSettings } from '../../src/reconcile/ip-settings';
import { actionRefusal, writeRefusals } from '../../src/reconcile/preflight';
import { sincePlanOptions, sincePlanRefusal, sincePlanWarning } from '../../src/reconcile/since-plan';

describe('diffFirewall', () => {
  const actual = { enabled: false, rulesets: [2, 1] };
  test.each<[string, Parameters<typeof diffFirewall>[0], object, string[]]>([
    ['nothing managed differs', { enabled: false, rulesets: [1, 2] }, {}, []],
    ['order alone is no change', { rulesets: [2, 1, 2] }, {}, []],
    ['enabled only', { enabled: true }, { enabled: true }, ['enabled false -> true']],
    ['rule sets only', { rulesets: [3, 1] }, { rulesets: [1, 3] }, ['rulesets [1, 2] -> [1, 3]']],
    ['both', { enabled: true, rulesets: [] }, { enabled: true, rulesets: [] }, ['enabled false -> true', 'rulesets [1, 2] -> []']],
    ['unmanaged members are left alone', {}, {}, []],
  ])('%s', (_name, desired, change, changes) => {
    expect(diffFirewall(desired, actual)).toEqual({ change, changes });
  });
});

describe('resolveRulesets', () => {
  const available = [{ id: 1, name: 'web' }, { id: 2, name: 'ssh' }, { id: 5, name: 'dup' }, { id: 6, name: 'dup' }];
  test('ids and names resolve to ids', () => {
    expect(resolveRulesets('firewall vps_a_1', [1, 'ssh'], available)).toEqual([1, 2]);
  });
  test('unknown ids, unknown names and ambiguous names fail together, listing what exists', () => {
    let err: ReconcileError | undefined;
    try {
      resolveRulesets('firewall vps_a_1', [9, 'mail', 'dup'], available);
    } catch (e) {
      err = e as ReconcileError;
    }
    expect(err?.summary).toBe('firewall vps_a_1: rule set id 9 does not exist; rule set name "mail" does not exist; rule set name "dup" is ambiguous (ids 5, 6); nothing was changed');
    expect(err?.hint).toBe('use one of the rule sets that exist: 1 "web", 2 "ssh", 5 "dup", 6 "dup"');
  });
  test('a mistyped name suggests the closest that exists', () => {
    expect(() => resolveRulesets('firewall vps_a_1', ['webb'], available)).toThrow('firewall vps_a_1: rule set name "webb" does not exist (did you mean "web"?); nothing was changed');
  });
});

describe('refuseRenamedRulesets', () => {
  const available = [{ id: 1, name: 'web' }, { id: 14, name: 'mail' }];
  test('names that still mean what they meant when read, and ids, pass', () => {
    expect(() => refuseRenamedRulesets('firewall vps_a_1', ['web', 7], [1, 7], available)).not.toThrow();
  });
  test('a name whose rule set was replaced or deleted since it was read is named, with what it means now', () => {
    expect(() => refuseRenamedRulesets('firewall vps_a_1', ['mail', 'ssh', 'web'], [13, 2, 1], available)).toThrow(
      'firewall vps_a_1: rule set name "mail" meant id 13 when read, and now means 14; rule set name "ssh" meant id 2 when read, and no rule set has it now; '
      + 'the rule sets changed during the apply, and nothing was changed');
  });
});

describe('diffIpSettings', () => {
  const actual: IpSettings = {
    address: '203.0.113.10',
    rdns: 'Web1.Example.com.',
    description: null,
    protection: { layer4: 'dynamic', layer7: 'off' },
    editable: { rdns: true, description: true, protection: true },
  };
  test('rdns compares case-insensitively and ignores a trailing dot', () => {
    expect(diffIpSettings({ rdns: 'web1.example.com' }, actual)).toEqual([]);
  });
  test('one change per differing field, each with a one-member body', () => {
    expect(diffIpSettings({ rdns: 'web2.example.com', description: 'web', protection: { layer4: 'permanent', layer7: 'only' } }, actual)).toEqual([
      { field: 'rdns', from: '"Web1.Example.com."', to: '"web2.example.com"', body: { rdns: 'web2.example.com' } },
      { field: 'description', from: 'none', to: '"web"', body: { description: 'web' } },
      { field: 'protection', from: 'dynamic/off', to: 'permanent/only', body: { protection: { layer4: 'permanent', layer7: 'only' } } },
    ]);
  });
  test('one layer differing is a protection change', () => {
    expect(diffIpSettings({ protection: { layer4: 'dynamic', layer7: 'only' } }, actual).map((c) => c.field)).toEqual(['protection']);
  });
  test('from no protection at all', () => {
    expect(diffIpSettings({ protection: { layer4: 'dynamic', layer7: 'off' } }, { ...actual, protection: null })[0].from).toBe('none');
  });
});

describe('power decisions', () => {
  test.each<['running' | 'stopped', ServerDetail['power'], 'shutdown' | 'power_off', string | undefined]>([
    ['running', 'running', 'shutdown', undefined],
    ['running', 'stopped', 'shutdown', 'start'],
    ['stopped', 'running', 'shutdown', 'shutdown'],
    ['stopped', 'running', 'power_off', 'power_off'],
    ['stopped', 'stopped', 'power_off', undefined],
  ])('want %s, have %s, stop by %s -> %s', (desired, power, stopMethod, action) => {
    expect(powerActionFor(desired, power, stopMethod)).toBe(action);
  });

  const server = (fields: Partial<ServerDetail>) => ({ status: 'active', power: 'running', currentOperation: null, ...fields }) as ServerDetail;
  test.each<[string, Partial<ServerDetail>, string]>([
    ['active and known', {}, 'ready'],
    ['provisioning', { status: 'provisioning' }, 'wait'],
    ['building', { status: 'building' }, 'wait'],
    ['power unknown', { power: 'unknown' }, 'wait'],
    ['operation in flight', { currentOperation: { id: 'op_1', serverId: 'x', action: 'start', status: 'running', message: null, requestedAt: null, completedAt: null } }, 'wait'],
    ['a final operation is no reason to wait', { currentOperation: { id: 'op_1', serverId: 'x', action: 'start', status: 'failed', message: null, requestedAt: null, completedAt: null } }, 'ready'],
    ['suspended', { status: 'suspended' }, 'fail'],
    ['failed', { status: 'failed' }, 'fail'],
    ['terminated', { status: 'terminated' }, 'fail'],
  ])('readiness: %s -> %s', (_n, fields, kind) => {
    expect(readiness(server(fields)).kind).toBe(kind);
  });

  test('first creation of a reboot resource is told by the recorded plan time', () => {
    expect(isFirstCreation({ firstPlannedAt: '2026-11-20T10:00:00Z', plannedAt: '2026-11-20T10:00:00Z' })).toBe(true);
    expect(isFirstCreation({ firstPlannedAt: '2026-11-20T10:00:00Z', plannedAt: '2026-11-21T09:00:00Z' })).toBe(false);
    expect(() => isFirstCreation({ plannedAt: '2026-11-21T09:00:00Z' })).toThrow(/did not pass the plan timestamps/);
  });
});

describe('plan-time refusals speak of what the person wrote: a resource, or an action', () => {
  const shared = { id: 'vps_web_1', accessRole: 'secondary', ipv4: [] } as unknown as Server;
  const terminated = { status: 'terminated', power: 'off', currentOperation: null, actions: [] } as unknown as ServerDetail;

  test.each(['resource', 'action'] as const)('for a %s', (element) => {
    expect(writeRefusals('reboot vps_web_1', shared, undefined, [], 'reboot', element).map((r) => r.hint)).toEqual([`manage it from the owning account, or remove this ${element}`]);
    expect(actionRefusal('reboot vps_web_1', terminated, 'reboot', undefined, element)?.hint).toBe(`remove this ${element} or point it at another server`);
  });

  test('an action the server does not offer is refused only where the reading token may run it: a read-only plan\'s token is offered nothing', () => {
    const stopped = { status: 'active', power: 'stopped', currentOperation: null, actions: [] } as unknown as ServerDetail;
    const readOnly = { name: 'read-only', scopes: ['servers:read', 'network:read'] };
    const full = { name: 'full', scopes: ['servers:read', 'servers:power', 'servers:control'] };
    expect(actionRefusal('power vps_web_1', stopped, 'start', readOnly)).toBeUndefined();
    expect(actionRefusal('power vps_web_1', stopped, 'start', full)?.summary).toMatch(/does not offer start/);
  });
});

/*
 * What moved since the plan (a saved plan applied later): each managed value the server no longer
 * holds as the plan showed it, and whether it already is what the apply makes it. Unmanaged
 * values, and values that did not move, are never named.
 */
describe('movedFirewall', () => {
  const shown = { enabled: true, rulesets: [1, 2] };
  test.each<[string, Parameters<typeof movedFirewall>[0], { enabled: boolean; rulesets: number[] }, object[]]>([
    ['nothing moved', { enabled: true, rulesets: [1, 2] }, { enabled: true, rulesets: [2, 1] }, []],
    ['enabled moved, set back', { enabled: true }, { enabled: false, rulesets: [1, 2] }, [{ name: 'enabled', shown: 'true', actual: 'false', desired: 'true', reached: false }]],
    ['enabled moved to what is planned', { enabled: false }, { enabled: false, rulesets: [1, 2] }, [{ name: 'enabled', shown: 'true', actual: 'false', desired: 'false', reached: true }]],
    ['an unmanaged member moved: not named', { rulesets: [1, 2] }, { enabled: false, rulesets: [1, 2] }, []],
    ['rule sets moved', { rulesets: [1, 3] }, { enabled: true, rulesets: [3] }, [{ name: 'rulesets', shown: '[1, 2]', actual: '[3]', desired: '[1, 3]', reached: false }]],
    ['rule sets moved to what is planned, in another order', { rulesets: [3, 1] }, { enabled: true, rulesets: [1, 3, 3] }, [{ name: 'rulesets', shown: '[1, 2]', actual: '[1, 3]', desired: '[1, 3]', reached: true }]],
    ['unmanaged rule sets moved: not named', { enabled: true }, { enabled: true, rulesets: [] }, []],
  ])('%s', (_name, desired, actual, moved) => {
    expect(movedFirewall(desired, shown, actual)).toEqual(moved);
  });
});

describe('what moved since the plan, in words', () => {
  const label = 'firewall vps_web_1';
  const moved = (name: string, shown: string, actual: string, desired: string) => ({ name, shown, actual, desired, reached: actual === desired });
  test('the warning names each value, and what the apply makes of it', () => {
    expect(sincePlanWarning(label, [])).toBeUndefined();
    expect(sincePlanWarning(label, [moved('enabled', 'true', 'false', 'true'), moved('rulesets', '[1]', '[3]', '[2]'), moved('x', 'a', 'b', 'b')])).toBe(
      'firewall vps_web_1: changed since the plan: enabled true -> false (set back to true), rulesets [1] -> [3] (set to [2] as planned), x a -> b (now as planned)',
    );
  });
  test('"fail" refuses only what the apply would write over, and says whether it wrote before', () => {
    expect(sincePlanRefusal(label, [])).toBeUndefined();
    expect(sincePlanRefusal(label, [moved('x', 'a', 'b', 'b')])).toBeUndefined();
    const refusal = sincePlanRefusal(label, [moved('x', 'a', 'b', 'b'), moved('enabled', 'true', 'false', 'true')]);
    expect(refusal?.summary).toBe('firewall vps_web_1: changed since the plan: enabled true -> false; left as it is, and nothing was written (changed_since_plan = "fail")');
    expect(refusal?.hint).toBe('review the change: plan again to keep the planned values, or change the configuration to keep the new ones');
    expect(sincePlanRefusal(label, [moved('enabled', 'true', 'false', 'true')], true)?.summary).toContain('; left as it is, after the planned changes were written (changed_since_plan');
  });
});

describe('sincePlanOptions', () => {
  const [planRead, shown] = [{ enabled: true }, { enabled: false }];
  test('overwrite: the apply writes from its plan\'s read, and names what moved since the plan showed', () => {
    expect(sincePlanOptions(false, planRead, shown)).toEqual({ observed: planRead, shown, refuseChangedSincePlan: false });
  });
  test('fail: the apply reads again, and what moved since its plan\'s read is refused, or since the plan shown without one', () => {
    expect(sincePlanOptions(true, planRead, shown)).toEqual({ shown: planRead, refuseChangedSincePlan: true });
    expect(sincePlanOptions(true, undefined, shown)).toEqual({ shown, refuseChangedSincePlan: true });
  });
});

describe('movedIpSettings', () => {
  const shown: IpSettings = { rdns: 'web.example.com', description: 'web', protection: { layer4: 'dynamic', layer7: 'off' }, editable: { rdns: true, description: true, protection: true } };
  const now = (over: Partial<IpSettings>): IpSettings => ({ ...shown, ...over });
  test.each<[string, Parameters<typeof movedIpSettings>[0], IpSettings, object[]]>([
    ['nothing moved; a host name in another case or with a final dot is the same, and protection read again equal', {
      rdns: 'web.example.com', description: 'web', protection: { layer4: 'dynamic', layer7: 'off' },
    }, now({ rdns: 'WEB.example.com.', protection: { layer4: 'dynamic', layer7: 'off' } }), []],
    ['rdns moved, set back', { rdns: 'web.example.com' }, now({ rdns: 'other.example.com' }), [{ name: 'rdns', shown: '"web.example.com"', actual: '"other.example.com"', desired: '"web.example.com"', reached: false }]],
    ['description moved to what is planned', { description: 'api' }, now({ description: 'api' }), [{ name: 'description', shown: '"web"', actual: '"api"', desired: '"api"', reached: true }]],
    ['one layer of protection moved', { protection: { layer4: 'dynamic', layer7: 'off' } }, now({ protection: { layer4: 'dynamic', layer7: 'on' } }), [
      { name: 'protection', shown: 'dynamic/off', actual: 'dynamic/on', desired: 'dynamic/off', reached: false },
    ]],
    ['fields in a fixed order, unmanaged ones never', { rdns: 'a.example.com', protection: { layer4: 'permanent', layer7: 'on' } }, now({ rdns: null, description: 'moved', protection: null }), [
      { name: 'rdns', shown: '"web.example.com"', actual: 'none', desired: '"a.example.com"', reached: false },
      { name: 'protection', shown: 'dynamic/off', actual: 'none', desired: 'permanent/on', reached: false },
    ]],
  ])('%s', (_name, desired, actual, moved) => {
    expect(movedIpSettings(desired, shown, actual)).toEqual(moved);
  });
});

test('diffIpSettings: one layer of protection that differs is a change of both, as the API sets them together', () => {
  const actual: IpSettings = { rdns: null, description: null, protection: { layer4: 'dynamic', layer7: 'off' }, editable: { rdns: true, description: true, protection: true } };
  expect(diffIpSettings({ protection: { layer4: 'dynamic', layer7: 'on' } }, actual).map((c) => [c.field, c.from, c.to])).toEqual([['protection', 'dynamic/off', 'dynamic/on']]);
  expect(diffIpSettings({ protection: { layer4: 'permanent', layer7: 'off' } }, actual).map((c) => c.to)).toEqual(['permanent/off']);
  expect(diffIpSettings({ protection: { layer4: 'dynamic', layer7: 'off' } }, { ...actual, protection: null }).map((c) => c.from)).toEqual(['none']);
});
