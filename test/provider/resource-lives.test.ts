import { APPLY_REBOOTS } from '../../src/provider/resources/effects';
import { firewall, power, reboots, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/*
 * Every identity names what it protects (issue 53 §1): a power state's reboots belong to one life
 * of the resource, and a read or a note to the plan that made it. Each sequence is driven as
 * Terraform drives the provider (test/helpers/protocol-driver.ts); each lost a reboot, or wrote a
 * first life's values over a hand change, when keys followed the generation alone and notes the
 * terraform process. test/e2e/intent-keys.test.ts runs the address and -replace cases through the
 * real terraform.
 */
const t = useTwoAccounts();
const pw = (v: string) => ({ pw: power({ reboot_triggers: { v } }) });

/** Life one: created with v1, changed to v2 (one reboot). */
async function firstLife() {
  expect((await t.driver.apply(pw('1'))).errors).toEqual([]);
  expect((await t.driver.apply(pw('2'))).errors).toEqual([]);
  expect(reboots(t.a)).toBe(1);
}

/** The second life goes v1 -> v2 too: the account must get a second reboot, not the first one's answer. */
async function secondLifeReboots() {
  expect((await t.driver.apply(pw('1'))).errors).toEqual([]);
  const again = await t.driver.apply(pw('2'));
  expect(again.errors).toEqual([]);
  expect(again.warnings.join('\n')).not.toContain('earlier, interrupted run');
  expect(reboots(t.a)).toBe(2);
}

describe('a power state\'s second life gets its own reboots', () => {
  test('destroy, then apply again', async () => {
    await firstLife();
    expect((await t.driver.apply({})).errors).toEqual([]);
    await secondLifeReboots();
  });

  test('-replace', async () => {
    await firstLife();
    expect((await t.driver.apply(pw('1'), { replace: ['pw'] })).errors).toEqual([]);
    const again = await t.driver.apply(pw('2'));
    expect(again.errors).toEqual([]);
    expect(reboots(t.a)).toBe(2);
  });

  test('state rm, then import', async () => {
    await firstLife();
    t.driver.stateRm('pw');
    expect(await t.driver.import('pw', power(), SERVER)).toEqual([]);
    await secondLifeReboots();
  });

  test('the same server under another address (count 1 -> 0 -> 1 under a for_each key)', async () => {
    await firstLife();
    expect((await t.driver.apply({})).errors).toEqual([]);
    expect((await t.driver.apply({ 'pw["web"]': power({ reboot_triggers: { v: '1' } }) })).errors).toEqual([]);
    expect((await t.driver.apply({ 'pw["web"]': power({ reboot_triggers: { v: '2' } }) })).errors).toEqual([]);
    expect(reboots(t.a)).toBe(2);
  });

  test('inside one terraform test: destroy and create again', async () => {
    await t.driver.terraformTest(async () => {
      await firstLife();
      expect((await t.driver.apply({})).errors).toEqual([]);
      await secondLifeReboots();
    });
  });

  test('a moved block keeps the life: the re-run of a crashed reboot at the new address replays it', async () => {
    expect((await t.driver.apply(pw('1'))).errors).toEqual([]);
    const life = t.driver.state.get('pw')!.value.life_id;
    expect(life).toMatch(/^life-[A-Za-z0-9_-]{16}$/);
    expect((await t.driver.apply(pw('2'), { crashOn: 'pw' })).crashed).toBe(true);
    t.driver.move('pw', 'pw_moved');
    const rerun = await t.driver.apply({ pw_moved: power({ reboot_triggers: { v: '2' } }) });
    expect(rerun.errors).toEqual([]);
    expect(rerun.warnings.filter((w) => w !== APPLY_REBOOTS)).toEqual([expect.stringContaining('rebooted by an earlier, interrupted run')]);
    expect(reboots(t.a)).toBe(1);
    expect(t.driver.state.get('pw_moved')!.value.life_id).toBe(life);
  });

  test('a refresh and an edit of anything else keep the life', async () => {
    expect((await t.driver.apply(pw('1'))).errors).toEqual([]);
    const life = t.driver.state.get('pw')!.value.life_id;
    expect((await t.driver.apply({ pw: power({ reboot_triggers: { v: '1' }, operation_timeout_seconds: 90 }) })).errors).toEqual([]);
    expect(t.driver.state.get('pw')!.value.life_id).toBe(life);
  });
});

test('a crash, a rollback, a re-deploy: the API cannot tell it from a crash\'s re-run, and the apply says what it assumed', async () => {
  expect((await t.driver.apply(pw('1'))).errors).toEqual([]);
  // Killed after the API accepted v2's reboot: the state keeps v1.
  expect((await t.driver.apply(pw('2'), { crashOn: 'pw' })).crashed).toBe(true);
  expect((await t.driver.apply(pw('1'))).changes).toEqual({});
  const redeployed = await t.driver.apply(pw('2'));
  expect(redeployed.errors).toEqual([]);
  expect(redeployed.warnings.filter((w) => w !== APPLY_REBOOTS)).toEqual([expect.stringMatching(
    /rebooted by an earlier, interrupted run \(operation \S+ succeeded: .*requested at .*\); not rebooted again\. Assumed: that run applied this same change \(generation 1 of this resource, reboot_triggers \{"v":"2"\}\) .* set reboot_triggers to a new value to reboot$/,
  )]);
  expect(reboots(t.a)).toBe(1);
});

describe('a read or a note serves the plan it was made for', () => {
  const restoring = (over = {}) => ({ 'fw[0]': firewall('a', { enabled: true, rulesets: [1], on_destroy: 'restore', ...over }) });

  test('terraform test: a create after a hand change reads what it takes over, warns of it, and restores it at the end', async () => {
    t.a.drift(SERVER, { firewall: { enabled: false, rulesets: [2] } });
    await t.driver.terraformTest(async () => {
      const created = await t.driver.apply(restoring());
      // Said by the plan, and again by the apply's plan of the change, each from its own read.
      expect(created.details).toEqual(Array(2).fill(expect.stringContaining('enabled false -> true')));
      expect((await t.driver.apply({})).errors).toEqual([]);
      expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: false, rulesets: [2] });
      // By hand, between two run blocks.
      t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [3] } });
      const again = await t.driver.apply(restoring());
      expect(again.errors).toEqual([]);
      expect(again.details).toEqual(Array(2).fill(expect.stringContaining('rulesets [3] -> [1]')));
      // The test's final destroy puts back what the second create took over.
      expect((await t.driver.apply({})).errors).toEqual([]);
    });
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [3] });
  });

  test('terraform test: a plan-only run block\'s note serves no later run block', async () => {
    t.a.drift(SERVER, { firewall: { enabled: false, rulesets: [2] } });
    await t.driver.terraformTest(async () => {
      const planned = await t.driver.plan(restoring());
      expect(planned.details).toEqual([expect.stringContaining('enabled false -> true')]);
      t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [3] } });
      const applied = await t.driver.apply(restoring());
      expect(applied.errors).toEqual([]);
      expect(applied.details).toEqual(Array(2).fill(expect.stringContaining('rulesets [3] -> [1]')));
      expect((await t.driver.apply({})).errors).toEqual([]);
    });
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [3] });
  });

  test.each([1_000, 61_000])('terraform test without refresh: an earlier run block\'s read, %i ms old, decides nothing: the apply reads, and writes both members in one PUT', async (later) => {
    const writes = () => t.a.executed({ serverId: SERVER, kind: 'firewall' }).length;
    await t.driver.terraformTest(async () => {
      expect((await t.driver.apply(restoring({ expect_takeover: true }))).errors).toEqual([]);
      expect((await t.driver.apply(restoring({ expect_takeover: true }))).changes).toEqual({});
      t.a.drift(SERVER, { firewall: { enabled: false, rulesets: [1] } });
      t.clock.advance(later);
      const before = writes();
      const changed = await t.driver.apply(restoring({ expect_takeover: true, rulesets: [1, 2] }), { refresh: false });
      expect(changed.errors).toEqual([]);
      expect(writes() - before).toBe(1);
    });
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: true, rulesets: [1, 2] });
  });
});
