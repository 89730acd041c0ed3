/* eslint-disable no-bitwise -- file modes are bit fields */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The environments a command runs in where users run it (issue 60 §3): any umask, no HOME or a
 * relative or unusable one, a uid with no passwd entry, TMPDIR unset, a read-only working folder,
 * and a stop signal to the command alone or to its whole group. Each case runs the simulator's life
 * cycle (start, status, stop) as a CI script would, and asserts that nothing lands outside the
 * folders the command owns, that nothing is left behind, and that a fallback is said in one line.
 */

/** How a command is run: the program and the arguments before the command's own. */
export interface CommandUnderTest {
  readonly name: string;
  readonly argv: () => readonly string[];
}

/** A user with no passwd entry, where this process may become one (as root); else this user. */
const STRANGER = process.getuid?.() === 0 ? 23_456 : undefined;
const mode = (path: string) => statSync(path).mode & 0o777;
const listing = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : []);

interface Case {
  readonly env: Record<string, string | undefined>;
  readonly umask?: string;
  readonly uid?: number;
  /** Where the cache must be; relative to the case's temporary folder when it is a fallback. */
  readonly cache: (folders: Folders) => string;
  /** The one line each command says, if the cache is a fallback. */
  readonly fallback?: RegExp;
  /** The working folder may not be written. */
  readonly readOnlyWork?: boolean;
}

interface Folders {
  readonly home: string;
  readonly temp: string;
  readonly work: string;
  readonly user: number;
}

const fallbackIn = (f: Folders) => join(f.temp, `cdktf-server-hosting-cache-${f.user}`);
const CASES: Array<[string, Case]> = [
  ['umask 002', { env: {}, umask: '002', cache: (f) => join(f.home, '.cache', 'cdktf-server-hosting') }],
  ['umask 022, TMPDIR unset', { env: { TMPDIR: undefined }, cache: (f) => join(f.home, '.cache', 'cdktf-server-hosting') }],
  ['umask 077', { env: {}, umask: '077', cache: (f) => join(f.home, '.cache', 'cdktf-server-hosting') }],
  ['no HOME, a uid with no passwd entry', { env: { HOME: undefined }, uid: STRANGER, cache: fallbackIn, fallback: /: the cache is kept in \S+ instead$/ }],
  ['a relative HOME', { env: { HOME: 'relative' }, uid: STRANGER, cache: fallbackIn, fallback: /^HOME \("relative"\) is not an absolute path: the cache is kept in \S+ instead$/ }],
  ['a HOME that cannot hold a folder (a file)', { env: { HOME: '/dev/null' }, uid: STRANGER, cache: fallbackIn, fallback: /could not be made: .*: the cache is kept in \S+ instead$/ }],
  ['a read-only working folder', { env: {}, uid: STRANGER, readOnlyWork: true, cache: (f) => join(f.home, '.cache', 'cdktf-server-hosting') }],
];

/** The simulator's life cycle through `command` in every environment of the matrix. */
export function describeEnvironmentMatrix(command: CommandUnderTest): void {
  describe(`${command.name} where users run it`, () => {
    let root: string;
    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'environments-'));
      chmodSync(root, 0o755);
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));
    const folder = (name: string, writable = true) => {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      chmodSync(dir, writable ? 0o777 : 0o555);
      return dir;
    };

    test.each(CASES)('%s: start, status and stop; nothing outside the cache, nothing left behind', (name, c) => {
      const tag = name.replace(/\W+/g, '-');
      const f: Folders = { home: folder(`home-${tag}`), temp: folder(`tmp-${tag}`), work: folder(`work-${tag}`, !c.readOnlyWork), user: c.uid ?? process.getuid!() };
      const env: Record<string, string> = { PATH: process.env.PATH! };
      for (const [key, value] of Object.entries({ HOME: f.home, TMPDIR: f.temp, ...c.env })) if (value !== undefined) env[key] = value;
      const run = (...args: string[]) => {
        const [program, ...before] = command.argv();
        const shell = `umask ${c.umask ?? '022'}; exec "$@"`;
        return spawnSync('sh', ['-c', shell, 'sh', program, ...before, 'simulator', ...args], { cwd: f.work, env, encoding: 'utf8', uid: c.uid, timeout: 60_000 });
      };
      const said = (stderr: string) => stderr.split('\n').filter(Boolean).map((line) => line.replace(/^[^:]+: /, ''));
      const expectSaid = (stderr: string) => expect(said(stderr)).toEqual(c.fallback ? [expect.stringMatching(c.fallback)] : []);

      const started = run('start', '--port', '0');
      expect(started.status).toBe(0);
      expectSaid(started.stderr);
      const port = new URL(/listening on (\S+)/.exec(started.stdout)![1]).port;
      const cache = c.cache(f);
      expect([mode(cache), mode(join(cache, 'simulators'))]).toEqual([0o700, 0o700]);
      const status = run('status', '--port', port);
      expect(status.status).toBe(0);
      expectSaid(status.stderr);
      const stopped = run('stop', '--port', port);
      expect([stopped.status, stopped.stdout]).toEqual([0, expect.stringContaining('stopped the simulator')]);
      expectSaid(stopped.stderr);
      // Nothing in the working folder, nothing left in the cache, nothing in the temporary folder but the fallback cache.
      expect(listing(f.work)).toEqual([]);
      expect(listing(join(cache, 'simulators'))).toEqual([]);
      expect(readdirSync(f.temp)).toEqual(c.fallback ? [`cdktf-server-hosting-cache-${f.user}`] : []);
    }, 90_000);

    test.each<[string, boolean]>([['the command alone', false], ['its process group (a cancelled CI job)', true]])(
      'SIGTERM to %s ends the simulator in the foreground and frees its port',
      async (_to, group) => {
        const [program, ...before] = command.argv();
        const child = spawn(program, [...before, 'simulator', '--port', '0'], { detached: group, env: { PATH: process.env.PATH!, HOME: folder('home-signal') }, stdio: ['ignore', 'pipe', 'pipe'] });
        const baseUrl = await new Promise<string>((resolve) => {
          let out = '';
          child.stdout.on('data', (d: Buffer) => {
            out += d;
            const found = /listening on (\S+)/.exec(out);
            if (found) resolve(found[1]);
          });
        });
        const ended = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
        if (group) process.kill(-child.pid!, 'SIGTERM');
        else child.kill('SIGTERM');
        expect(await ended).toBe(0);
        await expect(fetch(`${baseUrl}/servers`)).rejects.toThrow();
      },
      30_000,
    );
  });
}
