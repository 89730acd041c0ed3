import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseSimulatorArgs } from '../../src/cli/simulator-command';

test('defaults to 127.0.0.1:8787', () => {
  expect(parseSimulatorArgs([])).toEqual({ host: '127.0.0.1', port: 8787 });
});

test('--port N and --port=N', () => {
  expect(parseSimulatorArgs(['--port', '0']).port).toBe(0);
  expect(parseSimulatorArgs(['--port=9000']).port).toBe(9000);
});

test.each([['--port', 'x'], ['--port', '70000'], ['--verbose']])('refuses %s %s', (...args) => {
  expect(() => parseSimulatorArgs(args.filter(Boolean))).toThrow(/usage: cdktf-server-hosting simulator \[--port N\]/);
});

const alive = (pid: number) => spawnSync('kill', ['-0', String(pid)]).status === 0;

test('killing the process that started it (the Python console script, say) stops the simulator too', async () => {
  // The wheel's console script runs the command as a child with subprocess.run; this parent does the same.
  const node = 'require("ts-node").register({ transpileOnly: true }); require("./src/cli/main").main(["simulator", "--port", "0"]).then(process.exit)';
  const parent = spawn('python3', ['-c', `import subprocess, sys; subprocess.run([${JSON.stringify(process.execPath)}, "-e", sys.argv[1]])`, node], {
    cwd: join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => parent.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve()));
  const child = Number(spawnSync('pgrep', ['-P', String(parent.pid)], { encoding: 'utf8' }).stdout.trim());
  expect(alive(child)).toBe(true);
  parent.kill('SIGTERM');
  for (let i = 0; i < 40 && alive(child); i++) await new Promise((r) => setTimeout(r, 100));
  expect(alive(child)).toBe(false);
}, 30_000);
