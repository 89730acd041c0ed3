import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HostingApiClient } from '../../src/api';
import { createRunNotes } from '../../src/provider/run-notes';
import { createSession } from '../../src/provider/session';
import { firewall, power, SERVER, useTwoAccounts } from '../helpers/two-accounts';

/**
 * Which refresh read an apply may write from without reading again: one made for the plan it
 * applies (by its own process, or the run's last process that planned for the account), whatever
 * its age (a rate-limited apply past a minute reads nothing twice); never another run's (a saved
 * plan applied later, even at once), another account's, nor one an earlier plan of the same
 * terraform process made (`terraform test`'s run blocks).
 */
describe('trusted reads', () => {
  const clients: HostingApiClient[] = [];
  let dir: string;
  let started = 0;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'trusted-reads-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  afterAll(async () => Promise.all(clients.map((c) => c.close())));

  /** A provider process of `run`: the session of one of its RPCs in `phase`, and its notes to close at Shutdown. */
  const process = (run: string | undefined, phase: 'plan' | 'apply', token = 'hsim_token_a', planReadMaxAgeSeconds?: number) => {
    const client = new HostingApiClient({ baseUrl: 'http://127.0.0.1:9/api/v1', token });
    clients.push(client);
    started += 1;
    const notes = createRunNotes({ run, dir, log: () => undefined, processId: started, startedAt: started });
    const session = createSession({ client, tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, now: () => 0, notes, planReadMaxAgeSeconds }, new AbortController().signal).forCall(phase);
    return { session, shutdown: () => notes.close() };
  };
  /** A plan walk that refreshes: the read it marks, its process ended. */
  const planned = (run: string | undefined, token?: string) => {
    const plan = process(run, 'plan', token);
    const read = plan.session.markRead({});
    plan.shutdown();
    return read;
  };

  test('the apply after the plan of the same run and account trusts the read, however old; another run, another account or no run do not', () => {
    const read = planned('run-1');
    const hourLater = { ...read, readAt: read.readAt! - 3_600_000 };
    expect(process('run-1', 'apply').session.trustsRead(hourLater)).toBe(true);
    expect(process('run-2', 'apply').session.trustsRead(read)).toBe(false);
    expect(process('run-1', 'apply', 'hsim_token_b').session.trustsRead(read)).toBe(false);
    expect(process(undefined, 'apply').session.trustsRead(planned(undefined))).toBe(false);
  });

  test('a later plan of the same terraform process ends the trust: its apply reads, even when that plan did not refresh', () => {
    const read = planned('run-1');
    // terraform test: the next run block plans (here without a refresh), carrying the earlier block's read.
    process('run-1', 'plan').shutdown();
    expect(process('run-1', 'apply').session.trustsRead(read)).toBe(false);
  });

  test('the plan walk\'s own process trusts what it read; a read marked before this provider version never counts', () => {
    const plan = process('run-1', 'plan');
    expect(plan.session.trustsRead(plan.session.markRead({}))).toBe(true);
    expect(process('run-1', 'apply').session.trustsRead({ readAt: Date.now(), readIn: 'aGFzaCBvZiBydW4gYW5kIGFj' })).toBe(false);
  });

  test('the apply after a plan of its run knows that plan, and takes what it noted; another run knows neither', () => {
    const plan = process('run-1', 'plan');
    plan.session.notePlan('fw', { enabled: false });
    plan.shutdown();
    const apply = process('run-1', 'apply').session;
    expect([apply.planOfThisRun(), apply.planNote('fw')]).toEqual([true, { enabled: false }]);
    const other = process('run-2', 'apply').session;
    expect([other.planOfThisRun(), other.planNote('fw')]).toEqual([false, undefined]);
  });

  test('plan_read_max_age_seconds bounds the age within the plan; 0 reads at every apply', () => {
    const read = planned('run-1');
    expect(process('run-1', 'apply', 'hsim_token_a', 60).session.trustsRead(read)).toBe(true);
    expect(process('run-1', 'apply', 'hsim_token_a', 60).session.trustsRead({ ...read, readAt: read.readAt! - 61_000 })).toBe(false);
    expect(process('run-1', 'apply', 'hsim_token_a', 0).session.trustsRead({ ...read, readAt: read.readAt! - 1 })).toBe(false);
  });
});

describe('terraform test: a plan uses only its own notes (issue 59 §1)', () => {
  const t = useTwoAccounts();
  test('a plan-only run block, a hand change, then an apply block: the apply block\'s plan reads what it takes over again and says the hand change', async () => {
    const stack = { pw: power(), fw_a: firewall('a', { enabled: false, rulesets: [1] }) };
    expect((await t.driver.apply({ pw: power() })).errors).toEqual([]);
    const reads = () => t.a.requests.filter((r) => r.endpoint === 'GET /servers/{serverId}/firewall').length;
    const [planOnly, applied] = await t.driver.terraformTest(async () => {
      const first = await t.driver.plan(stack);
      t.a.drift(SERVER, { firewall: { enabled: true, rulesets: [3] } });
      const before = reads();
      let afterPlan = 0;
      const second = await t.driver.apply(stack, { betweenPlanAndApply: () => void (afterPlan = reads()) });
      // The apply block's plan reads the firewall; its apply carries out that plan's read.
      expect([afterPlan - before, reads() - before]).toEqual([1, 1]);
      return [first, second];
    });
    expect(planOnly.warnings.filter((w) => w.startsWith('Creating this resource'))).toHaveLength(1);
    expect(applied.warnings.filter((w) => w.startsWith('Creating this resource'))).toEqual([expect.stringContaining('enabled true -> false')]);
    expect(t.a.state.server(SERVER).firewall).toEqual({ enabled: false, rulesets: [1] });
  });
});
