import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processState } from '../../src/contract/process-start';
import { commandsIn } from '../helpers/printed-commands';

/*
 * `simulator start | status | stop`, the life cycle CI scripts know from LocalStack: start returns
 * once the API answers and says how to stop it; stop ends it cleanly and frees the port. Through the
 * package's own command (bin/), as a user's script runs it.
 */
const BIN = join(__dirname, '..', '..', 'bin', 'cdktf-server-hosting');
let stateDir: string;
beforeEach(() => (stateDir = mkdtempSync(join(tmpdir(), 'simulator-state-'))));
afterEach(() => {
  cli('stop');
  rmSync(stateDir, { recursive: true, force: true });
});
const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, 'simulator', ...args], { encoding: 'utf8', env: { ...process.env, CDKTF_SERVER_HOSTING_STATE_DIR: stateDir }, timeout: 60_000 });

test('start returns once the API answers, saying how to stop it; status and stop find it by port; the port is free after', async () => {
  const started = cli('start', '--port', '0', '--still');
  expect(started.status).toBe(0);
  const baseUrl = /listening on (\S+)/.exec(started.stdout)![1];
  const port = new URL(baseUrl).port;
  // The commands to copy next, a token in the first, in the terminal and not only in the log (issue 60 §2).
  const [useIt, statusCommand, stopCommand] = commandsIn(started.stdout);
  expect(useIt).toMatch(new RegExp(`^export HOSTING_API_URL=${baseUrl.replace(/[./]/g, '\\$&')} HOSTING_API_TOKEN=hsim_full_`));
  expect(stopCommand).toBe(`cdktf-server-hosting simulator stop --port ${port}`);
  expect((await fetch(`${baseUrl}/servers`)).status).toBe(401);

  // The commands start prints are run as printed (the command is this package's bin; printed-commands.test.ts runs them in a shell).
  const printed = (command: string) => {
    const [tool, ...args] = command.split(' ');
    expect(tool).toBe('cdktf-server-hosting');
    return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, CDKTF_SERVER_HOSTING_STATE_DIR: stateDir }, timeout: 60_000 });
  };
  const status = printed(statusCommand);
  expect([status.status, status.stdout]).toEqual([0, expect.stringMatching(new RegExp(`^running at ${baseUrl.replace(/[./]/g, '\\$&')} \\(pid \\d+`))]);

  const log = /its output, with the tokens: (\S+)/.exec(started.stdout)![1];
  expect(existsSync(log)).toBe(true);
  const stopped = printed(stopCommand);
  expect([stopped.status, stopped.stdout.trim()]).toEqual([0, expect.stringMatching(/^stopped the simulator at .*; its output was removed \(--keep-log keeps it\)$/)]);
  // What start made goes with stop.
  expect(existsSync(log)).toBe(false);
  await expect(fetch(`${baseUrl}/servers`)).rejects.toThrow();
  expect(cli('status', '--port', port).status).toBe(3);
  expect(cli('stop').stdout).toContain('nothing to stop');
}, 90_000);

// Issue 75 §4: a CI job killed with SIGKILL takes its shell; a detached simulator outlives it unless it has an owner.
test('--owner: the simulator stops when its owner ends, even killed; the next start sweeps what it left', async () => {
  const owner = spawn('sleep', ['60']);
  const started = cli('start', '--port', '0', '--owner', String(owner.pid));
  const baseUrl = /listening on (\S+)/.exec(started.stdout)![1];
  const log = /its output, with the tokens: (\S+)/.exec(started.stdout)![1];
  expect((await fetch(`${baseUrl}/servers`)).status).toBe(401);
  owner.kill('SIGKILL');
  const until = Date.now() + 5_000;
  while (Date.now() < until && (await fetch(`${baseUrl}/servers`).then(() => true, () => false))) await new Promise((r) => setTimeout(r, 100));
  await expect(fetch(`${baseUrl}/servers`)).rejects.toThrow();
  // The next job's start finds a state file whose simulator is gone: it and its output go.
  const next = cli('start', '--port', '0');
  expect(next.status).toBe(0);
  expect(existsSync(log)).toBe(false);
  expect(readdirSync(join(stateDir, 'simulators')).filter((n) => n.endsWith('.json'))).toEqual([`${new URL(/listening on (\S+)/.exec(next.stdout)![1]).port}.json`]);
  expect(cli('start', '--owner', '999999999').stderr).toContain('--owner 999999999: no process 999999999 runs, so the simulator would stop at once');
}, 90_000);

test('stop --keep-log keeps the output start wrote', () => {
  const started = cli('start', '--port', '0');
  const port = new URL(/listening on (\S+)/.exec(started.stdout)![1]).port;
  const log = /its output, with the tokens: (\S+)/.exec(started.stdout)![1];
  const stopped = cli('stop', '--port', port, '--keep-log');
  expect(stopped.stdout.trim()).toMatch(new RegExp(`; its output stays in ${log.replace(/[./]/g, '\\$&')}$`));
  expect(existsSync(log)).toBe(true);
}, 90_000);

test('a second start on a port a started simulator serves is refused, naming how to stop the first', () => {
  const first = cli('start', '--port', '0');
  const port = new URL(/listening on (\S+)/.exec(first.stdout)![1]).port;
  const second = cli('start', '--port', port);
  expect(second.status).toBe(1);
  expect(second.stderr).toContain(`a simulator started here already serves port ${port}`);
  expect(second.stderr).toContain(`cdktf-server-hosting simulator stop --port ${port}`);
}, 90_000);

describe('stop signals only the simulator start made', () => {
  /** Another job's process, serving something on a port: it answers every request 200, the identity challenge included. */
  const stranger = async () => {
    const child = spawn(process.execPath, ['-e', 'require(\'node:http\').createServer((q, s) => s.writeHead(200, { \'content-type\': \'application/json\' }).end(\'{"proof":"0000"}\')).listen(0, \'127.0.0.1\', function () { console.log(this.address().port); })'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))));
    return { child, port };
  };
  /** The state file a start in another container left behind, naming the stranger's pid and port. */
  const leftBehind = (pid: number, port: number, over: object) => {
    mkdirSync(join(stateDir, 'simulators'), { recursive: true, mode: 0o700 });
    const state = { pid, port, baseUrl: `http://127.0.0.1:${port}/api/v1`, log: join(stateDir, 'gone.log'), ...over };
    writeFileSync(join(stateDir, 'simulators', `${port}.json`), JSON.stringify(state), { mode: 0o600 });
  };

  test.each([
    ['a reused pid that serves something on the port', { started: 'another-boot/1', secret: 'ab'.repeat(32) }, /pid \d+ now belongs to another process; it was not signalled/],
    ['the same pid, something else answering the challenge', { secret: 'ab'.repeat(32) }, /what answers on port \d+ is not the simulator started here; it was not signalled/],
    ['a state file of an older version', {}, /written by an older version, cannot prove which process it started; it was not signalled/],
  ])('%s is named and left running', async (_name, over, said) => {
    const { child, port } = await stranger();
    try {
      leftBehind(child.pid!, port, over);
      const stopped = cli('stop', '--port', String(port));
      expect([stopped.status, stopped.stdout]).toEqual([0, expect.stringMatching(said)]);
      expect(child.exitCode).toBeNull();
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
      expect(existsSync(join(stateDir, 'simulators', `${port}.json`))).toBe(false);
    } finally {
      child.kill();
    }
  }, 60_000);
});

// Issue 60 §1: a simulator exposed for containers, paused in a debugger, or ended unreaped.
describe('where simulators really run', () => {
  const startedOn = (...args: string[]) => {
    const started = cli('start', '--port', '0', ...args);
    expect(started.status).toBe(0);
    const baseUrl = /listening on (\S+)/.exec(started.stdout)![1];
    return { port: new URL(baseUrl).port, pid: Number(/\(pid (\d+)\)/.exec(started.stdout)![1]), baseUrl };
  };

  test('exposed on every interface (--host 0.0.0.0): status vouches for it and stop ends it, with the access key start handed it', async () => {
    const { port, baseUrl } = startedOn('--host', '0.0.0.0');
    expect(cli('status', '--port', port)).toMatchObject({ status: 0, stdout: expect.stringMatching(/^running at /) });
    expect(cli('stop', '--port', port).stdout).toMatch(/^stopped the simulator at /);
    await expect(fetch(`${baseUrl}/servers`)).rejects.toThrow();
  }, 90_000);

  test('paused (SIGSTOP): status keeps it and says it does not answer; stop still ends it', async () => {
    const { port, pid, baseUrl } = startedOn();
    process.kill(pid, 'SIGSTOP');
    try {
      const status = cli('status', '--port', port);
      expect([status.status, status.stdout.trim()]).toEqual([3, `the simulator started on port ${port} (pid ${pid}) runs but did not answer within 2 s (paused or busy?); stop still stops it`]);
      expect(existsSync(join(stateDir, 'simulators', `${port}.json`))).toBe(true);
      expect(cli('stop', '--port', port).stdout).toMatch(/^stopped the simulator at /);
      await expect(fetch(`${baseUrl}/servers`)).rejects.toThrow();
    } finally {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Stopped already.
      }
    }
  }, 90_000);
});

test('a zombie (ended, not reaped) is a process that has ended', () => {
  const proc = mkdtempSync(join(tmpdir(), 'proc-'));
  try {
    mkdirSync(join(proc, '7'));
    writeFileSync(join(proc, '7', 'stat'), '7 (node (sim)) Z 1 7 7 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 12345 0 0');
    expect(processState(7, proc)).toBe('Z');
    expect(processState(8, proc)).toBeUndefined();
  } finally {
    rmSync(proc, { recursive: true, force: true });
  }
});
