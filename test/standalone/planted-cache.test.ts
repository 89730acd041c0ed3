import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cachedExecutable, executableNotices, standaloneExecutables } from '../../src/cli/standalone-executable';
import { defaultCacheDir } from '../../src/cli/user-cache';
import { readStandaloneProgram } from '../../src/contract/provider-mirror';

/*
 * Written from a planted cache (issue 48 §5, issue 53 §1): the cache key of a built executable is
 * computable from the public package, so a file planted there was signed by `provider registry`,
 * then written by `provider mirror --standalone` into the folder Terraform runs it from. Every
 * command now writes what its own run built (the build is reproducible), compared with the cache.
 * Runs in the package step: the plant goes into a cache of its own, which borrows the shared one's
 * downloads (Node, postject).
 */
const BIN = join(__dirname, '..', '..', 'bin', 'cdktf-server-hosting');
let cacheDir: string;
beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'planted-cache-'));
  const shared = resolve(defaultCacheDir());
  for (const name of readdirSync(shared).filter((entry) => entry !== 'standalone')) symlinkSync(join(shared, name), join(cacheDir, name));
});
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

test('a file planted where the executable is cached is written by no command: each builds its own, says what differs, and the cache keeps the real one', () => {
  const program = readStandaloneProgram();
  const lines: string[] = [];
  const build = { cacheDir, log: (line: string) => lines.push(line) };
  const real = standaloneExecutables(program, ['linux_amd64'], build).get('linux_amd64')!;
  const file = cachedExecutable({ ...program, notices: executableNotices(build) }, 'linux_amd64', build);
  writeFileSync(file, 'planted', { mode: 0o755 });
  // The same process again: what it built, not what the cache holds now.
  expect(standaloneExecutables(program, ['linux_amd64'], build).get('linux_amd64')!.equals(real)).toBe(true);
  // Another process: `provider mirror --standalone` writes where Terraform runs it.
  const out = mkdtempSync(join(tmpdir(), 'planted-mirror-'));
  try {
    const mirror = spawnSync(process.execPath, [BIN, 'provider', 'mirror', out, '--standalone', '--platform', 'linux_amd64'], {
      encoding: 'utf8', env: { ...process.env, CDKTF_SERVER_HOSTING_CACHE_DIR: cacheDir }, timeout: 300_000,
    });
    expect(mirror.status).toBe(0);
    expect(`${mirror.stdout}${mirror.stderr}`).toContain(`the cached ${file} is not what this run builds (SHA-256 `);
    const written = readdirSync(out, { recursive: true }).map(String).find((name) => name.includes('terraform-provider-hosting_v'));
    expect(readFileSync(join(out, written!)).equals(real)).toBe(true);
    expect(readFileSync(file).equals(real)).toBe(true);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
