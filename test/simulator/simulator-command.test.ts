import { parseSimulatorArgs } from '../../src/cli/simulator-command';

test('defaults to 127.0.0.1:8787', () => {
  expect(parseSimulatorArgs([])).toEqual({ host: '127.0.0.1', port: 8787 });
});

test('--port N and --port=N', () => {
  expect(parseSimulatorArgs(['--port', '0']).port).toBe(0);
  expect(parseSimulatorArgs(['--port=9000']).port).toBe(9000);
});

test.each([['--port', 'x'], ['--port', '70000'], ['--verbose']])('refuses %s %s', (...args) => {
  expect(() => parseSimulatorArgs(args.filter(Boolean))).toThrow(/usage: simulator \[--port N\]/);
});
