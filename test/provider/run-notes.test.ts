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
    const plan = notes();
    plan.put('fw', { enabled: false, rulesets: [2] });
    plan.flush();
    expect(readdirSync(join(root, 'notes'))).toEqual([`run-a4242-${process.pid}.json`]);
    expect(statSync(join(root, 'notes')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'notes', `run-a4242-${process.pid}.json`)).mode & 0o777).toBe(0o600);
    // The apply is another process of the same terraform: here, the file under another pid.
    const file = join(root, 'notes', `run-a4242-${process.pid}.json`);
    writeFileSync(join(root, 'notes', 'run-a4242-7.json'), readFileSync(file));
    rmSync(file);
    clock += 30_000;
    expect(notes().get('fw', 60_000)).toEqual({ enabled: false, rulesets: [2] });
    expect(notes().get('fw', 10_000)).toBeUndefined();
    expect(notes({ run: 'a4243' }).get('fw', 60_000)).toBeUndefined();
  });

  test('a file that is not a notes file, too large, or a link is not used', () => {
    notes();
    planWrote('{"fw": {"at": "yesterday", "value": 1}}', 1);
    planWrote('not json', 2);
    writeFileSync(join(root, 'elsewhere.json'), JSON.stringify({ fw: { at: clock, value: 'planted' } }));
    symlinkSync(join(root, 'elsewhere.json'), join(root, 'notes', 'run-a4242-3.json'));
    expect(notes().get('fw', 60_000)).toBeUndefined();
    expect(lines.some((l) => l.includes('run-a4242-1.json is not a notes file'))).toBe(true);
  });

  test('a folder others may write into, or a link in its place, turns the notes off', () => {
    mkdirSync(join(root, 'open'), { mode: 0o777 });
    chmodSync(join(root, 'open'), 0o777);
    const open = notes({ dir: join(root, 'open') });
    open.put('fw', 1);
    open.flush();
    expect(readdirSync(join(root, 'open'))).toEqual([]);
    expect(lines.some((l) => l.startsWith('run notes off') && l.includes('is not this user\'s alone'))).toBe(true);
    mkdirSync(join(root, 'real'), { mode: 0o700 });
    symlinkSync(join(root, 'real'), join(root, 'link'));
    notes({ dir: join(root, 'link') }).put('fw', 1);
    expect(lines.some((l) => l.includes('is not a folder'))).toBe(true);
  });

  test('files of runs an hour old are removed by the next run that writes', () => {
    notes();
    planWrote('{}', 9);
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(join(root, 'notes', 'run-a4242-9.json'), old, old);
    const plan = notes();
    plan.put('x', 1);
    plan.flush();
    expect(readdirSync(join(root, 'notes'))).toEqual([`run-a4242-${process.pid}.json`]);
  });
});
