/* eslint-disable no-bitwise -- file modes are bit fields */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UNKNOWN } from '../../src/provider/plugin/values';
import { changeOf, createRunNotes, type RunNotesOptions } from '../../src/provider/run-notes';

/** The notes a plan leaves for the apply of the same terraform process: a cache that is refused when it cannot be trusted. */
describe('run notes', () => {
  let root: string;
  let clock: number;
  const lines: string[] = [];
  /** The provider processes that run, by pid (each test's processes share this jest process). */
  const running = new Set<number>();
  const runOf = (pid: number) => (running.has(pid) ? `provider ${pid}` : undefined);
  const notes = (over: Partial<RunNotesOptions> = {}) => createRunNotes({ run: 'a4242', dir: join(root, 'notes'), log: (l) => lines.push(l), now: () => clock, runOf, ...over });
  /** What a plan process wrote, as a file of another process of terraform 4242. */
  const planWrote = (text: string, pid = 1) => writeFileSync(join(root, 'notes', `run-a4242-${pid}.json`), text, { mode: 0o600 });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'run-notes-'));
    clock = 1_000_000;
    lines.length = 0;
    running.clear();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('a notes file of an earlier version, which kept no said warnings, leaves every warning new', () => {
    mkdirSync(join(root, 'notes'), { recursive: true, mode: 0o700 });
    planWrote('{"process": "p", "startedAt": 1, "planned": ["acct"], "notes": {}}', 1);
    const apply = notes({ startedAt: 2 });
    expect([apply.firstTime('a takeover'), apply.firstTime('a takeover')]).toEqual([true, false]);
  });

  test('a process knows whether an earlier one of its run planned a change; with notes off it cannot tell', () => {
    const FW = changeOf('hosting_server_firewall', ['vps_web_1']);
    const planner = (over: Partial<RunNotesOptions>) => {
      const process = notes(over);
      process.planning('acct');
      return process;
    };
    // Before it has written that it plans, a process cannot tell.
    expect(notes({ startedAt: 1, processId: 1 }).mayHavePlanned(FW)).toBe(true);
    const first = planner({ startedAt: 1, processId: 1 });
    expect(first.mayHavePlanned(FW)).toBe(false);
    first.plannedChange(FW);
    first.plannedChange(changeOf('hosting_ip_settings', ['ded_x', UNKNOWN]));
    // While the earlier planner runs (or if it died before Shutdown), its list may be incomplete.
    expect(planner({ startedAt: 2, processId: 2 }).mayHavePlanned(changeOf('hosting_power_state', ['vps_web_1']))).toBe(true);
    first.close();
    const apply = planner({ startedAt: 2, processId: 2 });
    expect(apply.mayHavePlanned(FW)).toBe(true);
    // Another type, or another server, was not planned; an identity not known at plan may have been any.
    expect(apply.mayHavePlanned(changeOf('hosting_power_state', ['vps_web_1']))).toBe(false);
    expect(apply.mayHavePlanned(changeOf('hosting_server_firewall', ['vps_web_2']))).toBe(false);
    expect(apply.mayHavePlanned(changeOf('hosting_ip_settings', ['ded_x', '203.0.113.10']))).toBe(true);
    expect(apply.mayHavePlanned(changeOf('hosting_ip_settings', ['ded_y', '203.0.113.10']))).toBe(false);
    expect(apply.mayHavePlanned(changeOf('hosting_server_firewall', [UNKNOWN]))).toBe(true);
    // Another run's plan, or a process of this run that started earlier, is no earlier plan of this one.
    expect(planner({ run: 'a4243', startedAt: 2, processId: 3 }).mayHavePlanned(FW)).toBe(false);
    const earlier = planner({ startedAt: 0.5, processId: 4 });
    expect(earlier.mayHavePlanned(FW)).toBe(false);
    earlier.close();
    // Nor is an earlier process of the run that planned nothing (it only noted or said).
    planWrote('{"process": "q", "startedAt": 0.2, "planned": [], "notes": {}, "said": ["x"]}', 8);
    const between = planner({ startedAt: 0.6, processId: 5 });
    expect(between.mayHavePlanned(FW)).toBe(false);
    between.close();
    // A file of an earlier version lists no changes: it may have planned any.
    planWrote('{"process": "v", "startedAt": 0.3, "planned": ["acct"], "notes": {}, "closed": true}', 9);
    expect(planner({ startedAt: 0.7, processId: 6 }).mayHavePlanned(FW)).toBe(true);
    expect(planner({ startedAt: 0.7, processId: 7 }).mayHavePlanned(changeOf('hosting_ip_settings', ['ded_x', '203.0.113.10']))).toBe(true);
    expect(planner({ run: undefined }).mayHavePlanned(FW)).toBe(true);
  });

  test('an earlier planner seen running serves this walk, not one that ended: its unclosed list proves nothing either way', () => {
    const FW = changeOf('hosting_server_firewall', ['vps_web_1']);
    const planner = (processId: number) => {
      running.add(processId);
      const process = notes({ startedAt: processId, processId });
      process.planning('acct');
      return process;
    };
    // Two provider configurations of one plan walk: the second sees the first still running.
    const first = planner(1);
    first.plannedChange(FW);
    expect(planner(2).mayHavePlanned(FW)).toBe(false);
    // Once it ended without closing its file (it died before Shutdown), its list may be incomplete.
    running.delete(1);
    expect(planner(3).mayHavePlanned(changeOf('hosting_power_state', ['vps_web_1']))).toBe(true);
    // A process that took its id since is another process.
    const reused = notes({ startedAt: 4, processId: 4, runOf: (pid) => (pid === 1 ? 'another process' : runOf(pid)) });
    reused.planning('acct');
    expect(reused.mayHavePlanned(changeOf('hosting_power_state', ['vps_web_1']))).toBe(true);
    // Where the system cannot tell a process (outside Linux), none is seen running.
    const untold = notes({ startedAt: 5, processId: 5, runOf: () => undefined });
    untold.planning('acct');
    expect(untold.mayHavePlanned(changeOf('hosting_power_state', ['vps_web_1']))).toBe(true);
  });

  test('a file of the run that cannot be read may be the plan an apply carries out', () => {
    const PW = changeOf('hosting_power_state', ['vps_web_1']);
    mkdirSync(join(root, 'notes'), { recursive: true, mode: 0o700 });
    planWrote('{"process": "p", "startedAt": 1, "planned": ["acct"], "changes": [], "closed": true, "notes": {}}', 1);
    planWrote('{"process": "damaged", "startedAt": 1, "plan', 3);
    const apply = notes({ startedAt: 5, processId: 5 });
    apply.planning('acct');
    expect(apply.mayHavePlanned(PW)).toBe(true);
    apply.close();
    rmSync(join(root, 'notes', 'run-a4242-3.json'));
    const again = notes({ startedAt: 6, processId: 6 });
    again.planning('acct');
    expect(again.mayHavePlanned(PW)).toBe(false);
  });

  test('a recorded identity is text: a server id with a slash or a space names one server', () => {
    const plan = notes({ startedAt: 1, processId: 1 });
    plan.planning('acct');
    plan.plannedChange(changeOf('hosting_ip_settings', ['ded/x y', '1']));
    plan.close();
    const apply = notes({ startedAt: 2, processId: 2 });
    apply.planning('acct');
    expect(apply.mayHavePlanned(changeOf('hosting_ip_settings', ['ded/x y', '1']))).toBe(true);
    expect(apply.mayHavePlanned(changeOf('hosting_ip_settings', ['ded', 'x y/1']))).toBe(false);
    expect(apply.mayHavePlanned(changeOf('hosting_ip_settings', ['ded/x', 'y 1']))).toBe(false);
  });

  test('an identity not known yet stands for a resource of its own type only', () => {
    const plan = notes({ startedAt: 1, processId: 1 });
    plan.planning('acct');
    plan.plannedChange(changeOf('hosting_server_firewall', [UNKNOWN]));
    plan.close();
    const apply = notes({ startedAt: 2, processId: 2 });
    apply.planning('acct');
    expect(apply.mayHavePlanned(changeOf('hosting_server_firewall', ['vps_web_1']))).toBe(true);
    expect(apply.mayHavePlanned(changeOf('hosting_power_state', ['vps_web_1']))).toBe(false);
  });

  test('a plan writes its file when it first plans, and a process whose own file cannot be written cannot tell what was planned', () => {
    const FW = changeOf('hosting_server_firewall', ['vps_web_1']);
    const plan = notes({ startedAt: 1, processId: 1 });
    plan.planning('acct');
    // No flush: the apply after this plan, a process started right after it ends, must find it.
    expect(readdirSync(join(root, 'notes'))).toEqual(['run-a4242-1.json']);
    // A folder that refuses this process's write (here its file's name is taken by a folder) may have refused the plan's.
    mkdirSync(join(root, 'notes', 'run-a4242-2.json'));
    rmSync(join(root, 'notes', 'run-a4242-1.json'));
    const refused = notes({ startedAt: 2, processId: 2 });
    refused.planning('acct');
    expect(lines.some((l) => l.startsWith('run notes not written'))).toBe(true);
    expect(refused.mayHavePlanned(FW)).toBe(true);
    expect(notes({ startedAt: 3, processId: 3 }).mayHavePlanned(FW)).toBe(true);
  });

  test('a note of the plan reaches the apply of the same terraform, while recent; another terraform\'s never', () => {
    const plan = notes({ startedAt: 1 });
    plan.planning('acct');
    plan.put('acct', 'fw', { enabled: false, rulesets: [2] });
    plan.close();
    expect(readdirSync(join(root, 'notes'))).toEqual([`run-a4242-${process.pid}.json`]);
    expect(statSync(join(root, 'notes')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'notes', `run-a4242-${process.pid}.json`)).mode & 0o777).toBe(0o600);
    // The apply is another process of the same terraform: here, the file under another pid.
    const file = join(root, 'notes', `run-a4242-${process.pid}.json`);
    writeFileSync(join(root, 'notes', 'run-a4242-7.json'), readFileSync(file));
    rmSync(file);
    clock += 30_000;
    expect(notes({ startedAt: 2 }).get('acct', 'fw', 60_000)).toEqual({ enabled: false, rulesets: [2] });
    expect(notes({ startedAt: 2 }).get('acct', 'fw', 10_000)).toBeUndefined();
    expect(notes({ startedAt: 2 }).get('other account', 'fw', 60_000)).toBeUndefined();
    expect(notes({ run: 'a4243', startedAt: 2 }).get('acct', 'fw', 60_000)).toBeUndefined();
  });

  test('a note serves the plan that made it: a later plan of the same terraform process (terraform test) breaks the chain', () => {
    const wrote = (pid: number, startedAt: number, put: boolean) => {
      const n = notes({ processId: pid, startedAt });
      n.planning('acct');
      if (put) n.put('acct', 'fw', startedAt);
      n.close();
      return n;
    };
    wrote(1, 1, true);
    expect(notes({ startedAt: 2 }).get('acct', 'fw', 60_000)).toBe(1);
    // A plan-only run block in between: it planned, and noted nothing.
    wrote(2, 2, false);
    expect(notes({ startedAt: 3 }).get('acct', 'fw', 60_000)).toBeUndefined();
    // Another account's plan in between is no plan of this account.
    const other = notes({ processId: 3, startedAt: 3 });
    other.planning('other');
    other.close();
    wrote(4, 4, true);
    expect(notes({ startedAt: 5 }).get('acct', 'fw', 60_000)).toBe(4);
    expect(notes({ startedAt: 5 }).ofThisPlan('acct', wrote(5, 5, false).process)).toBe(false);
    // An apply of this run has an earlier planner; one of a plan another run saved (another run, or a first process) has none.
    expect([notes({ startedAt: 6 }).plannedEarlier('acct'), notes({ startedAt: 0 }).plannedEarlier('acct'), notes({ run: 'a4243', startedAt: 6 }).plannedEarlier('acct')])
      .toEqual([true, false, false]);
  });

  test('words a run said once are new to no later process of that run, and new to every other run; a process says each once', () => {
    const first = notes({ processId: 1, startedAt: 1 });
    expect([first.firstTime('takeover of vps_web_1'), first.firstTime('takeover of vps_web_1'), first.firstTime('takeover of vps_web_2')]).toEqual([true, false, true]);
    first.close();
    const later = notes({ processId: 2, startedAt: 2 });
    expect([later.firstTime('takeover of vps_web_1'), later.firstTime('takeover of vps_web_3')]).toEqual([false, true]);
    expect(notes({ run: 'a4243', processId: 3, startedAt: 3 }).firstTime('takeover of vps_web_1')).toBe(true);
    // The file keeps digests, not the words (which may quote the account's text).
    expect(readFileSync(join(root, 'notes', 'run-a4242-1.json'), 'utf8')).not.toContain('vps_web');
  });

  test('a file that is not a notes file, too large, or a link is not used', () => {
    notes();
    planWrote('{"process": "p", "startedAt": 1, "planned": ["acct"], "notes": {"fw": {"at": "yesterday", "value": 1}}}', 1);
    planWrote('not json', 2);
    writeFileSync(join(root, 'elsewhere.json'), JSON.stringify({ process: 'p', startedAt: 1, planned: ['acct'], notes: { 'acct fw': { at: clock, value: 'planted' } } }));
    symlinkSync(join(root, 'elsewhere.json'), join(root, 'notes', 'run-a4242-3.json'));
    expect(notes({ startedAt: 2 }).get('acct', 'fw', 60_000)).toBeUndefined();
    expect(lines.some((l) => l.includes('run-a4242-1.json is not a notes file'))).toBe(true);
  });

  test('a folder others may write into, or a link in its place, turns the notes off', () => {
    mkdirSync(join(root, 'open'), { mode: 0o777 });
    chmodSync(join(root, 'open'), 0o777);
    const open = notes({ dir: join(root, 'open') });
    open.put('acct', 'fw', 1);
    open.close();
    expect(readdirSync(join(root, 'open'))).toEqual([]);
    expect(lines.some((l) => l.startsWith('run notes off') && l.includes('is not this user\'s alone'))).toBe(true);
    mkdirSync(join(root, 'real'), { mode: 0o700 });
    symlinkSync(join(root, 'real'), join(root, 'link'));
    notes({ dir: join(root, 'link') }).put('acct', 'fw', 1);
    expect(lines.some((l) => l.includes('is not a folder'))).toBe(true);
  });

  test('files of runs an hour old are removed by the next run that writes', () => {
    notes();
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const pid of [9, 123456]) {
      planWrote('{}', pid);
      utimesSync(join(root, 'notes', `run-a4242-${pid}.json`), old, old);
    }
    const plan = notes();
    plan.put('acct', 'x', 1);
    plan.close();
    expect(readdirSync(join(root, 'notes'))).toEqual([`run-a4242-${process.pid}.json`]);
  });

  test('a process\'s file names its terraform: the process that started the provider', () => {
    const plan = notes();
    plan.planning('acct');
    expect(JSON.parse(readFileSync(join(root, 'notes', `run-a4242-${process.pid}.json`), 'utf8'))).toMatchObject({ terraform: process.ppid });
  });

  test('an hour-old file stays while its terraform still runs (an approval prompt can wait that long); a pid reused by another run does not keep it', () => {
    const oldFile = (pid: number) => {
      planWrote(JSON.stringify({ process: 'p', startedAt: 1, planned: ['acct'], notes: {}, terraform: 77 }), pid);
      const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
      utimesSync(join(root, 'notes', `run-a4242-${pid}.json`), old, old);
    };
    notes();
    oldFile(9);
    const plan = notes({ runOf: (pid) => (pid === 77 ? 'a4242' : undefined) });
    plan.planning('acct');
    expect(readdirSync(join(root, 'notes')).sort()).toEqual([`run-a4242-${process.pid}.json`, 'run-a4242-9.json'].sort());
    // A file whose name only contains a notes file's is not one: it stays, however old.
    writeFileSync(join(root, 'notes', 'copy-of-run-a4242-9.json'), '{}');
    utimesSync(join(root, 'notes', 'copy-of-run-a4242-9.json'), new Date(0), new Date(0));
    const reused = notes({ runOf: () => 'b7777' });
    reused.put('acct', 'x', 1);
    reused.close();
    expect(readdirSync(join(root, 'notes')).sort()).toEqual(['copy-of-run-a4242-9.json', `run-a4242-${process.pid}.json`]);
  });

  test('a note is used while its age is within the bound, never one from the future; a read names the process that made it', () => {
    const plan = notes({ startedAt: 1, processId: 1 });
    plan.planning('acct');
    plan.put('acct', 'fw', 'noted');
    plan.close();
    const apply = notes({ startedAt: 2 });
    expect(apply.get('acct', 'fw', 0)).toBe('noted');
    clock += 1_000;
    expect(notes({ startedAt: 2 }).get('acct', 'fw', 1_000)).toBe('noted');
    expect(notes({ startedAt: 2 }).get('acct', 'fw', 999)).toBeUndefined();
    clock -= 2_000;
    expect(notes({ startedAt: 2 }).get('acct', 'fw', 60_000)).toBeUndefined();
    expect(apply.ofThisPlan('acct', plan.process)).toBe(true);
    expect(apply.ofThisPlan('acct', apply.process)).toBe(true);
    expect(apply.ofThisPlan('acct', undefined)).toBe(false);
    // A read with no mark is trusted by no process, not even one that has no earlier plan.
    expect(notes({ startedAt: 0 }).ofThisPlan('acct', undefined)).toBe(false);
    expect(apply.ofThisPlan('acct', 'a-process-of-another-run')).toBe(false);
  });

  test('of several earlier plans, the latest is the one an apply carries out, whatever order their files are in', () => {
    // Listed in the folder's order (by name), the latest is first and a later name is earlier.
    for (const [pid, startedAt] of [[1, 30], [2, 10], [3, 20]]) {
      const n = notes({ processId: pid, startedAt });
      n.planning('acct');
      n.put('acct', 'fw', startedAt);
      n.close();
    }
    expect(notes({ startedAt: 40 }).get('acct', 'fw', 60_000)).toBe(30);
    expect(notes({ startedAt: 25 }).get('acct', 'fw', 60_000)).toBe(20);
  });

  test('no run told, no notes: nothing is kept, nothing trusted, no file written', () => {
    const first = notes({ run: undefined });
    first.planning('acct');
    first.put('acct', 'fw', 1);
    first.close();
    expect(notes({ run: undefined }).get('acct', 'fw', 60_000)).toBeUndefined();
    expect(first.ofThisPlan('acct', first.process)).toBe(false);
    expect(lines).toContain('run notes off (the terraform run cannot be told on this system): a create reads at apply what its plan read');
    expect(readdirSync(root)).toEqual([]);
  });

  test('a process that neither planned nor noted writes no file; files younger than an hour stay', () => {
    notes().close();
    expect(readdirSync(join(root, 'notes'))).toEqual([]);
    planWrote('{}', 9);
    const recent = new Date(Date.now() - 30 * 60 * 1000);
    utimesSync(join(root, 'notes', 'run-a4242-9.json'), recent, recent);
    const plan = notes();
    plan.planning('acct');
    plan.close();
    expect(readdirSync(join(root, 'notes')).sort()).toEqual([`run-a4242-${process.pid}.json`, 'run-a4242-9.json'].sort());
  });

  test('a file too large, or another user\'s, is not used', () => {
    const plan = notes({ processId: 1, startedAt: 1 });
    plan.planning('acct');
    plan.put('acct', 'fw', 'x'.repeat(9 * 1024 * 1024));
    plan.close();
    expect(notes({ startedAt: 2 }).get('acct', 'fw', 60_000)).toBeUndefined();
    const other = notes({ processId: 3, startedAt: 3 });
    other.planning('acct');
    other.put('acct', 'fw', 'planted by another user');
    other.close();
    chownSync(join(root, 'notes', 'run-a4242-3.json'), 12345, 12345);
    expect(notes({ startedAt: 4 }).get('acct', 'fw', 60_000)).toBeUndefined();
  });
});

