/* eslint-disable no-bitwise -- file modes are bit fields */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRunNotes, type RunNotesOptions } from '../../src/provider/run-notes';

/** The notes a plan leaves for the apply of the same terraform process: a cache that is refused when it cannot be trusted. */
describe('run notes', () => {
  let root: string;
  let clock: number;
  const lines: string[] = [];
  const notes = (over: Partial<RunNotesOptions> = {}) => createRunNotes({ run: 'a4242', dir: join(root, 'notes'), log: (l) => lines.push(l), now: () => clock, ...over });
  /** What a plan process wrote, as a file of another process of terraform 4242. */
  const planWrote = (text: string, pid = 1) => writeFileSync(join(root, 'notes', `run-a4242-${pid}.json`), text, { mode: 0o600 });

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'run-notes-'));
    clock = 1_000_000;
    lines.length = 0;
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('a note of the plan reaches the apply of the same terraform, while recent; another terraform\'s never', () => {
    const plan = notes({ startedAt: 1 });
    plan.planning('acct');
    plan.put('acct', 'fw', { enabled: false, rulesets: [2] });
    plan.flush();
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
      n.flush();
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
    other.flush();
    wrote(4, 4, true);
    expect(notes({ startedAt: 5 }).get('acct', 'fw', 60_000)).toBe(4);
    expect(notes({ startedAt: 5 }).ofThisPlan('acct', wrote(5, 5, false).process)).toBe(false);
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
    open.flush();
    expect(readdirSync(join(root, 'open'))).toEqual([]);
    expect(lines.some((l) => l.startsWith('run notes off') && l.includes('is not this user\'s alone'))).toBe(true);
    mkdirSync(join(root, 'real'), { mode: 0o700 });
    symlinkSync(join(root, 'real'), join(root, 'link'));
    notes({ dir: join(root, 'link') }).put('acct', 'fw', 1);
    expect(lines.some((l) => l.includes('is not a folder'))).toBe(true);
  });

  test('files of runs an hour old are removed by the next run that writes', () => {
    notes();
    planWrote('{}', 9);
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(join(root, 'notes', 'run-a4242-9.json'), old, old);
    const plan = notes();
    plan.put('acct', 'x', 1);
    plan.flush();
    expect(readdirSync(join(root, 'notes'))).toEqual([`run-a4242-${process.pid}.json`]);
  });
});
