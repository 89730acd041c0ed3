import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The wheel's command (scripts/python-console-script.py) where users run it (issue 60 §1): any
 * umask, no HOME or a relative one, a uid with no passwd entry, a run killed mid-unpack, a cached
 * copy damaged or opened to others, SIGTERM to the Python process alone. Each run leaves nothing
 * outside the cache folder it owns, reuses the copy it made, and says one line when it falls back.
 * A fake installed package stands in for the wheel's (the wheel's own suite runs the real one).
 */
const COMMAND = 'fake-cmd';
const root = mkdtempSync(join(tmpdir(), 'python-command-'));
chmodSync(root, 0o755);
const site = join(root, 'site');
const script = join(root, COMMAND);
const PROGRAM = `
const { writeFileSync } = require('node:fs');
const [mode, file] = process.argv.slice(2);
if (mode === 'wait') {
  process.on('SIGTERM', () => setTimeout(() => { writeFileSync(file, 'terminated'); process.exit(0); }, 300));
  writeFileSync(file, 'ready');
  setInterval(() => undefined, 1000);
} else {
  process.stdout.write(JSON.stringify({ args: process.argv.slice(2), cache: process.env.CDKTF_SERVER_HOSTING_CACHE_DIR }));
}
`;

beforeAll(() => {
  const packageDir = join(root, 'pkg', 'package');
  mkdirSync(join(packageDir, 'bin'), { recursive: true });
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name: 'fake', bin: { [COMMAND]: 'bin/fake-cmd.js' } }));
  writeFileSync(join(packageDir, 'bin', 'fake-cmd.js'), PROGRAM);
  mkdirSync(join(site, 'fakemod', '_jsii'), { recursive: true });
  writeFileSync(join(site, 'fakemod', '__init__.py'), '');
  spawnSync('tar', ['-czf', join(site, 'fakemod', '_jsii', 'fake@1.0.0.jsii.tgz'), '-C', join(root, 'pkg'), 'package']);
  const template = readFileSync(join(__dirname, '..', '..', 'scripts', 'python-console-script.py'), 'utf8');
  writeFileSync(script, template.replace('@@MODULE@@', 'fakemod').replace('@@TARBALL@@', 'fake@1.0.0.jsii.tgz').replace('@@COMMAND@@', COMMAND));
  spawnSync('chmod', ['-R', 'a+rX', root]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Where {
  /** Variables of the run (PATH and PYTHONPATH are added); a value of undefined leaves the variable out. */
  readonly env: Record<string, string | undefined>;
  readonly umask?: string;
  readonly uid?: number;
  readonly cwd: string;
}
const environment = (where: Where) => {
  const env: Record<string, string> = { PATH: process.env.PATH!, PYTHONPATH: site };
  for (const [name, value] of Object.entries(where.env)) if (value !== undefined) env[name] = value;
  return env;
};
/** Runs the command in `where`; its status, stdout and stderr. */
function run(where: Where, args: string[] = ['hello']) {
  const shell = `umask ${where.umask ?? '022'}; exec python3 ${script} ${args.join(' ')}`;
  const res = spawnSync('sh', ['-c', shell], { cwd: where.cwd, env: environment(where), encoding: 'utf8', uid: where.uid });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}
// eslint-disable-next-line no-bitwise -- a file mode is a bit field
const mode = (path: string) => statSync(path).mode & 0o777;
const listing = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : []);
const newFolder = (name: string) => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  return dir;
};

test('umask 002: the cache folders are this user\'s alone, and the second run uses the copy the first made', () => {
  const home = newFolder('home-002');
  const temp = newFolder('tmp-002');
  const where = { env: { HOME: home, TMPDIR: temp }, umask: '002', cwd: newFolder('work-002') };
  expect(run(where)).toEqual({ status: 0, stdout: '{"args":["hello"]}', stderr: '' });
  const cache = join(home, '.cache', COMMAND);
  expect([mode(cache), mode(join(cache, 'python-command'))]).toEqual([0o700, 0o700]);
  const copies = readdirSync(join(cache, 'python-command'));
  expect(copies).toHaveLength(1);
  expect(run(where).status).toBe(0);
  expect(readdirSync(join(cache, 'python-command'))).toEqual(copies);
  expect([listing(temp), listing(where.cwd)]).toEqual([[], []]);
});

test('a cache folder an earlier version made group-writable is not trusted: its copies are made again', () => {
  const home = newFolder('home-open');
  const where = { env: { HOME: home, TMPDIR: newFolder('tmp-open') }, cwd: newFolder('work-open') };
  expect(run(where).status).toBe(0);
  const cache = join(home, '.cache', COMMAND, 'python-command');
  const [copy] = readdirSync(cache);
  writeFileSync(join(cache, copy, 'package', 'bin', 'fake-cmd.js'), 'process.stdout.write("planted")');
  chmodSync(cache, 0o775);
  expect(run(where)).toMatchObject({ status: 0, stdout: '{"args":["hello"]}' });
  expect(mode(cache)).toBe(0o700);
});

test.each<[string, Record<string, string | undefined>, string]>([
  ['no HOME', { HOME: undefined }, 'HOME is not set and this user has no passwd entry'],
  ['a relative HOME', { HOME: 'relative' }, 'HOME ("relative") is not an absolute path'],
  ['a HOME that is a file', { HOME: '/dev/null' }, '/dev/null/.cache cannot hold a folder of this user\'s alone'],
])('%s: one folder of this user\'s in the temporary folder, for the package and the command, said in one line; nothing in the working folder', (name, env, why) => {
  const temp = newFolder(`tmp-${name.replace(/\W/g, '')}`);
  const where = { env: { ...env, TMPDIR: temp }, cwd: newFolder(`work-${name.replace(/\W/g, '')}`), uid: process.getuid?.() === 0 ? 12_345 : undefined };
  const first = run(where);
  const user = where.uid ?? process.getuid!();
  // The folder the Node command falls back to (src/cli/user-cache.ts), handed to it: it says nothing more.
  const owner = join(temp, `${COMMAND}-cache-${user}`);
  expect(first).toEqual({ status: 0, stdout: JSON.stringify({ args: ['hello'], cache: owner }), stderr: `${COMMAND}: ${why}: the cache is kept in ${owner} instead\n` });
  expect(run(where).status).toBe(0);
  expect(readdirSync(join(owner, 'python-command'))).toHaveLength(1);
  expect(listing(where.cwd)).toEqual([]);
  expect(readdirSync(temp)).toEqual([`${COMMAND}-cache-${user}`]);
});

const asRoot = process.getuid?.() === 0 ? test : test.skip;

asRoot('no folder of this user\'s alone anywhere: a copy for the run, removed after it; "simulator start" is refused before it unpacks', () => {
  const temp = newFolder('tmp-untrusted');
  const where = { env: { HOME: undefined, TMPDIR: temp }, cwd: newFolder('work-untrusted'), uid: 12_346 };
  // Another user made the fallback folder first.
  mkdirSync(join(temp, `${COMMAND}-cache-12346`));
  spawnSync('chown', ['23456', join(temp, `${COMMAND}-cache-12346`)]);
  const once = run(where);
  expect(once).toMatchObject({ status: 0, stdout: '{"args":["hello"]}' });
  expect(once.stderr).toMatch(new RegExp(`^${COMMAND}: no folder of this user's alone for the package's files \\(.*${COMMAND}-cache-12346 is not this user's alone\\): unpacked into \\S+ for this run\n$`));
  expect(readdirSync(temp)).toEqual([`${COMMAND}-cache-12346`]);
  const start = run(where, ['simulator', 'start']);
  expect(start.status).toBe(1);
  expect(start.stderr).toContain('set CDKTF_SERVER_HOSTING_CACHE_DIR to a folder of yours, or run the simulator in the foreground');
  expect(readdirSync(temp)).toEqual([`${COMMAND}-cache-12346`]);
});

test('a run killed mid-unpack leaves nothing for good; a damaged copy is made again, said in one line', () => {
  const home = newFolder('home-damaged');
  const where = { env: { HOME: home, TMPDIR: newFolder('tmp-damaged') }, cwd: newFolder('work-damaged') };
  expect(run(where).status).toBe(0);
  const cache = join(home, '.cache', COMMAND, 'python-command');
  const [copy] = readdirSync(cache);
  // What a killed run leaves: a staging folder, an hour old.
  mkdirSync(join(cache, '.unpacking-killed'), { mode: 0o700 });
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(join(cache, '.unpacking-killed'), hourAgo, hourAgo);
  truncateSync(join(cache, copy, 'package', 'bin', 'fake-cmd.js'), 10);
  const again = run(where);
  expect(again).toMatchObject({ status: 0, stdout: '{"args":["hello"]}' });
  expect(again.stderr).toContain(`the cached copy of the package in ${join(cache, copy)} cannot be used (package/bin/fake-cmd.js is 10 bytes, not `);
  expect(readdirSync(cache)).toEqual([copy]);
});

test('SIGTERM to the Python process alone reaches the command, and the Python process ends after it', async () => {
  const home = newFolder('home-term');
  const signal = join(newFolder('signal'), 'state');
  const where = { env: { HOME: home, TMPDIR: newFolder('tmp-term') }, cwd: newFolder('work-term') };
  expect(run(where).status).toBe(0);
  const child = spawn('python3', [script, 'wait', signal], { env: environment(where), cwd: where.cwd });
  await new Promise<void>((resolve) => {
    const poll = setInterval(() => existsSync(signal) && (clearInterval(poll), resolve()), 20);
  });
  child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  expect(readFileSync(signal, 'utf8')).toBe('terminated');
  expect(code).toBe(0);
});
