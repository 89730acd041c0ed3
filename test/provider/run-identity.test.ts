import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { terraformRun } from '../../src/provider/run-identity';

/** A /proc of one container: its PID namespace, the boot, and one process with its start time. */
function fakeProc(root: string, name: string, { namespace, boot = 'b0f1e2d3', pid = 1, startTime = '4711', command = 'terraform' }: { namespace: string; boot?: string; pid?: number; startTime?: string; command?: string }): string {
  const proc = join(root, name);
  mkdirSync(join(proc, 'self', 'ns'), { recursive: true });
  mkdirSync(join(proc, String(pid)), { recursive: true });
  mkdirSync(join(proc, 'sys', 'kernel', 'random'), { recursive: true });
  symlinkSync(`pid:[${namespace}]`, join(proc, 'self', 'ns', 'pid'));
  writeFileSync(join(proc, 'sys', 'kernel', 'random', 'boot_id'), `${boot}\n`);
  // Fields 3-21, then starttime (22): the command name may hold spaces and parentheses.
  writeFileSync(join(proc, String(pid), 'stat'), `${pid} (${command}) S ${Array.from({ length: 18 }, (_, i) => i).join(' ')} ${startTime} 0 0\n`);
  return proc;
}

describe('the terraform run behind a provider process', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'run-identity-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('two containers whose terraform is pid 1, sharing one temporary folder, are two runs', () => {
    const a = terraformRun(1, fakeProc(root, 'a', { namespace: '4026532001' }));
    const b = terraformRun(1, fakeProc(root, 'b', { namespace: '4026532002' }));
    expect(a).toMatch(/^[0-9a-f]{24}$/);
    expect(b).toMatch(/^[0-9a-f]{24}$/);
    expect(a).not.toBe(b);
  });

  test('a pid used again later (another start time), or after a reboot, is another run; the same process is the same run', () => {
    const first = terraformRun(4242, fakeProc(root, 'first', { namespace: 'n', pid: 4242, startTime: '100' }));
    expect(terraformRun(4242, fakeProc(root, 'later', { namespace: 'n', pid: 4242, startTime: '900' }))).not.toBe(first);
    expect(terraformRun(4242, fakeProc(root, 'rebooted', { namespace: 'n', pid: 4242, startTime: '100', boot: 'ffff' }))).not.toBe(first);
    expect(terraformRun(4242, fakeProc(root, 'again', { namespace: 'n', pid: 4242, startTime: '100', command: 'terraform (x) y' }))).toBe(first);
  });

  test('a system that does not tell them has no run: every apply reads afresh', () => {
    expect(terraformRun(1, join(root, 'no-proc'))).toBeUndefined();
  });

  test('this machine tells the run of this process\'s parent', () => {
    if (process.platform !== 'linux') return;
    expect(terraformRun(process.ppid)).toMatch(/^[0-9a-f]{24}$/);
  });
});
