import { UNKNOWN } from '../../src/provider/plugin/values';
import { plannedRebootGeneration, rebootIntent } from '../../src/provider/resources/reboot-generation';
import { appliedLife, lifeOfBridge, newLifeId, plannedLife } from '../../src/provider/resources/resource-life';

/*
 * The pure parts of a power state's identity (issue 53 §2), as plain values: its life, the
 * generation of its trigger changes, and the reboot intent they key.
 */
const LIFE = /^life-[A-Za-z0-9_-]{16}$/;

describe('a life', () => {
  test('is drawn anew for every create: 96 random bits', () => {
    const lives = new Set(Array.from({ length: 100 }, newLifeId));
    expect(lives.size).toBe(100);
    for (const life of lives) expect(life).toMatch(LIFE);
  });

  test('is planned as the prior\'s, known after apply for a create, none for a state from before lives', () => {
    expect(plannedLife(null)).toBe(UNKNOWN);
    expect(plannedLife({ life_id: 'life-abc' })).toBe('life-abc');
    expect(plannedLife({ life_id: null })).toBeNull();
    expect(plannedLife({})).toBeNull();
  });

  test('is recorded by the apply as planned; a create draws one; a state from before lives keeps none', () => {
    expect(appliedLife('life-abc')).toBe('life-abc');
    expect(appliedLife(UNKNOWN)).toMatch(LIFE);
    expect(appliedLife(null)).toBeNull();
  });

  test('moved from a bridge, is the bridge resource\'s own: the same for every walk, another for another bridge resource', () => {
    const bridge = Buffer.from('{"id":"7f1d","input":{"value":{"document":"{}"}}}');
    expect(lifeOfBridge(bridge)).toMatch(LIFE);
    expect(lifeOfBridge(Buffer.from(bridge))).toBe(lifeOfBridge(bridge));
    expect(lifeOfBridge(Buffer.from('{"id":"9a0e","input":{"value":{"document":"{}"}}}'))).not.toBe(lifeOfBridge(bridge));
    expect(lifeOfBridge(undefined)).toMatch(LIFE);
  });
});

describe('a reboot\'s generation', () => {
  const state = (over: object) => ({ reboot_triggers: { v: '1' }, reboot_generation: 3, ...over });
  test.each<[string, object | null, object, unknown]>([
    ['a create: 0', null, state({ reboot_generation: UNKNOWN }), 0],
    ['triggers changed: one more', state({}), state({ reboot_triggers: { v: '2' } }), 4],
    ['no change: the prior', state({}), state({}), 3],
    ['a trigger not known yet: known after apply', state({}), state({ reboot_triggers: { v: UNKNOWN, w: 'x' } }), UNKNOWN],
    ['triggers set for the first time, not known yet: nothing to reboot, the prior', state({ reboot_triggers: null }), state({ reboot_triggers: UNKNOWN }), 3],
    ['a state from before generations changes its triggers: 1', state({ reboot_generation: null }), state({ reboot_triggers: { v: '2' } }), 1],
  ])('%s', (_name, prior, planned, expected) => {
    expect(plannedRebootGeneration(prior as never, planned as never)).toBe(expected);
  });
});

test('a reboot\'s intent names its life; a state from before lives keeps the intent it had, so a crash re-run across the upgrade replays', () => {
  expect(rebootIntent(null, 1, { v: '2' })).toBe('["reboot",1,{"v":"2"}]');
  expect(rebootIntent('life-a', 1, { v: '2' })).toBe('["reboot","life-a",1,{"v":"2"}]');
  expect(rebootIntent('life-a', 1, { v: '2' })).not.toBe(rebootIntent('life-b', 1, { v: '2' }));
});
