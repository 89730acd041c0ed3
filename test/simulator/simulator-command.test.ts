import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseSimulatorArgs } from '../../src/cli/simulator-command';

test('defaults to 127.0.0.1:8787, running until signalled', () => {
  expect(parseSimulatorArgs([])).toEqual({ host: '127.0.0.1', port: 8787, allowedHosts: [], exitWithParent: false, still: false, limits: {} });
});

test('every flag, each also as --flag=value keeping the whole value', () => {
  expect(parseSimulatorArgs(['--host=::1', '--allow-host', 'sim.ci', '--allow-host=other.ci', '--account=/k/rel=2026.json', '--request-log', '50', '--still', '--exit-with-parent'])).toEqual({
    host: '::1', port: 8787, allowedHosts: ['sim.ci', 'other.ci'], accountFile: '/k/rel=2026.json', requestLogSize: 50, exitWithParent: true, still: true, limits: {},
  });
});

test('--port N and --port=N', () => {
  expect(parseSimulatorArgs(['--port', '0']).port).toBe(0);
  expect(parseSimulatorArgs(['--port=9000']).port).toBe(9000);
});

test.each([
  [['--port', 'x'], '--port "x" is not a port: a number from 0 (any free port) to 65535'],
  [['--port', '70000'], '--port "70000" is not a port'],
  [['--verbose'], 'unknown option --verbose'],
  [['--acount', 'a.json'], 'unknown option --acount; did you mean --account?'],
  [['--port'], '--port needs a value'],
  [['--exit-with-parent=yes'], '--exit-with-parent takes no value'],
  [['8787'], 'unexpected argument "8787"'],
  [['--request-log', '0'], '--request-log "0" is not a number of requests from 1 to 1000000'],
])('refuses %j, naming what is wrong', (args, message) => {
  expect(() => parseSimulatorArgs(args)).toThrow(message);
});

const alive = (pid: number) => spawnSync('kill', ['-0', String(pid)]).status === 0;

/** Starts `simulator ARGS` as the child of a python3 that runs it with subprocess.run; resolves to both pids once it listens. */
async function simulatorUnderParent(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const node = `require("ts-node").register({ transpileOnly: true }); require("./src/cli/main").main(${JSON.stringify(['simulator', '--port', '0', ...args])}).then(process.exit)`;
  const parent = spawn('python3', ['-c', `import subprocess, sys; subprocess.run([${JSON.stringify(process.execPath)}, "-e", sys.argv[1]])`, node], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
  });
  await new Promise<void>((resolve) => parent.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve()));
  const child = Number(spawnSync('pgrep', ['-P', String(parent.pid)], { encoding: 'utf8' }).stdout.trim());
  expect(alive(child)).toBe(true);
  return { parent, child };
}

const waitWhile = async (condition: () => boolean, ms: number) => {
  for (let waited = 0; waited < ms && condition(); waited += 100) await new Promise((r) => setTimeout(r, 100));
};

// SIGKILL is what a CI runner sends once its grace period ends (issue 75 §4): no handler of the parent runs.
test.each(['SIGTERM', 'SIGKILL'] as const)('with --exit-with-parent (the testing kit\'s), %s to the process that started it stops the simulator too', async (signal) => {
  const { parent, child } = await simulatorUnderParent(['--exit-with-parent']);
  parent.kill(signal);
  await waitWhile(() => alive(child), 4_000);
  expect(alive(child)).toBe(false);
}, 30_000);

test('under npx (npm exec runs it under sh -c), `kill $!` of npx reaches the simulator too: it ends with its launcher', async () => {
  const { parent, child } = await simulatorUnderParent([], { ...process.env, npm_command: 'exec' });
  parent.kill('SIGTERM');
  await waitWhile(() => alive(child), 4_000);
  expect(alive(child)).toBe(false);
}, 30_000);

/** This environment without what marks a launcher (jest itself may run under npx). */
const byHand = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'npm_command' && name !== 'JSII_AGENT'));

test('run by hand, it outlives the script that started it in the background, and stops when signalled', async () => {
  const { parent, child } = await simulatorUnderParent([], byHand);
  parent.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1_500));
  expect(alive(child)).toBe(true);
  process.kill(child, 'SIGTERM');
  await waitWhile(() => alive(child), 4_000);
  expect(alive(child)).toBe(false);
}, 30_000);

test('on an address other machines reach, it warns, prints an access key at start, and the demo tokens get random secrets', async () => {
  const node = 'require("ts-node").register({ transpileOnly: true }); require("./src/cli/main").main(["simulator", "--host", "0.0.0.0", "--port", "0"]).then(process.exit)';
  const child = spawn(process.execPath, ['-e', node], { cwd: join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'pipe'] });
  const printed = { out: '', err: '' };
  // The two streams arrive in either order: wait for the end of both.
  await new Promise<void>((resolve) => {
    const ready = () => printed.out.includes('Press Ctrl-C') && printed.err.includes('\n') && resolve();
    child.stdout.on('data', (chunk: Buffer) => ((printed.out += chunk.toString()), ready()));
    child.stderr.on('data', (chunk: Buffer) => ((printed.err += chunk.toString()), ready()));
  });
  try {
    expect(printed.err).toMatch(/^Warning: listening on 0\.0\.0\.0, which other machines can reach\./);
    const key = /Access key \(send "Authorization: Bearer KEY"; printed only here\): (\S+)/.exec(printed.out)![1];
    expect(key).toMatch(/^[\w-]{32}$/);
    // The addresses it prints name this machine's loopback, which the Host check serves.
    const page = new RegExp(`Live page, to watch in a browser: (http://127\\.0\\.0\\.1:\\d+/__simulator/\\?access=${key})\\n`).exec(printed.out)![1];
    expect((await fetch(page, { redirect: 'manual' })).status).toBe(303);
    expect(printed.out).not.toContain('0123456789abcdef');
    expect(printed.out).toMatch(/^ {2}full +hsim_full_[0-9a-f]{32}$/m);
  } finally {
    child.kill('SIGTERM');
  }
}, 30_000);
