import type { IpSettings, Server, ServerDetail } from '../../src/api';
import { diffFirewall, diffIpSettings, isFirstCreation, powerActionFor, readiness, ReconcileError, resolveRulesets } from '../../src/reconcile';
import { actionRefusal, writeRefusals } from '../../src/reconcile/preflight';

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
    expect(actionRefusal('reboot vps_web_1', terminated, 'reboot', element)?.hint).toBe(`remove this ${element} or point it at another server`);
  });
});
