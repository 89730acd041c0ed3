import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Windows programs under Debian's Wine (wine64 8), for the Windows suite (test/windows). What Wine
 * needs, found by hand and kept here: a prefix that reports Windows 10 (Node 22 refuses to start on
 * Wine's default), Node's stdout and stderr as files (through Wine's pipes Node fails), and no
 * prompt to install Mono or Gecko. Linux `terraform` starts a Windows provider through `wineShim`.
 */

export const WINE = process.env.WINE ?? '/usr/lib/wine/wine64';
/**
 * Outside the clone: a prefix's drive Z: is a link to `/`, and tools that walk the clone's folders
 * (jsii-docgen's glob over node_modules, say) would follow it across the whole machine.
 */
const PREFIX = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cdktf-server-hosting-wine');

/** The environment every Wine process of the suite gets, on top of `extra`. */
export const wineEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH!, HOME: process.env.HOME ?? tmpdir(), WINEPREFIX: PREFIX, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=', ...extra,
});

/**
 * `describe` for the suites that need Wine: without it they are skipped with a visible message,
 * except under CI=true, where a missing Wine is a failure (`npx projen wine:install` installs it).
 */
export function describeWithWine(name: string, body: () => void): void {
  if (existsSync(WINE)) {
    describe(`${name} (${spawnSync(WINE, ['--version'], { encoding: 'utf8' }).stdout.trim()})`, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      test('wine is installed', () => {
        throw new Error(`${WINE} was not found; the Windows suite needs Debian's wine64 under CI=true (npx projen wine:install)`);
      });
    });
    return;
  }
  // eslint-disable-next-line no-console
  console.warn(`SKIPPED: "${name}" needs Debian's wine64 at ${WINE} (npx projen wine:install)`);
  describe.skip(name, body);
}

/** The suite's Wine prefix, made once (about 20 s) and reporting Windows 10. */
export function prepareWinePrefix(): void {
  const marker = join(PREFIX, '.windows-10');
  if (existsSync(marker)) return;
  mkdirSync(PREFIX, { recursive: true });
  const made = spawnSync(WINE, ['reg', 'add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], { env: wineEnv(), encoding: 'utf8', timeout: 300_000 });
  if (made.status !== 0) throw new Error(`the Wine prefix ${PREFIX} could not be made (exit ${made.status}): ${made.stderr}`);
  writeFileSync(marker, '');
}

/** Ends the prefix's wineserver, which otherwise lingers after the suite. */
export function stopWine(): void {
  spawnSync(join(WINE, '..', 'wineserver'), ['-k'], { env: wineEnv() });
}

export interface WineRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a Windows program to its end, its stdout and stderr through files (asynchronous: an in-process simulator may be serving it). */
export function runUnderWine(exe: string, args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<WineRun> {
  const dir = mkdtempSync(join(tmpdir(), 'wine-run-'));
  const [out, err] = [join(dir, 'stdout'), join(dir, 'stderr')];
  const fds = [openSync(out, 'w'), openSync(err, 'w')];
  const child = spawn(WINE, [exe, ...args], { cwd: options.cwd, env: wineEnv(options.env), stdio: ['ignore', fds[0], fds[1]] });
  fds.forEach(closeSync);
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      const run = { code: code ?? -1, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') };
      rmSync(dir, { recursive: true, force: true });
      resolve(run);
    });
  });
}

/** A Windows program left running (a simulator): its output so far, and a stop. */
export interface WineProcess {
  readonly output: () => string;
  readonly stop: () => void;
}

export function startUnderWine(exe: string, args: readonly string[], env: Record<string, string> = {}): WineProcess {
  const dir = mkdtempSync(join(tmpdir(), 'wine-process-'));
  const out = join(dir, 'output');
  const fd = openSync(out, 'w');
  const child = spawn(WINE, [exe, ...args], { env: wineEnv(env), stdio: ['ignore', fd, fd] });
  closeSync(fd);
  return {
    output: () => readFileSync(out, 'utf8'),
    stop: () => {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A `#!/bin/sh` provider for Linux terraform that runs the Windows provider `exe` under Wine: it hands
 * the handshake line on, waits for the provider, then passes its log on. Node's output goes through
 * files, so once the provider exits the shim holds none of Terraform's pipes. `winePath` puts Windows
 * folders on the provider's PATH (node.exe for the launcher).
 */
export function wineShim(exe: string, winePath = ''): string {
  const env = Object.entries(wineEnv({ WINEPATH: winePath })).filter(([name]) => name.startsWith('WINE'));
  return `#!/bin/sh
out=$(mktemp) err=$(mktemp)
${env.map(([name, value]) => `${name}='${value}'`).join(' ')} '${WINE}' '${exe}' "$@" > "$out" 2> "$err" < /dev/null &
pid=$!
trap '' INT
trap 'kill $pid' TERM
until [ "$(wc -l < "$out")" -ge 1 ] || ! kill -0 $pid 2> /dev/null; do sleep 0.1; done
head -n 1 "$out"
wait $pid
status=$?
cat "$err" >&2
rm -f "$out" "$err"
exit $status
`;
}
