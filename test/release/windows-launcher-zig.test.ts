import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Issue 41, point 2, for the compiler: the zig wheel that builds the committed Windows launchers is
 * checked against its pinned hash every time the build uses it, not only when pip downloads it. In
 * the package step (test:release), where the launchers are checked: it installs zig twice (about a minute).
 */
const ROOT = join(__dirname, '..', '..');

test('a cached zig wheel changed after its download is removed and downloaded again, and the launchers still check', () => {
  const cache = mkdtempSync(join(tmpdir(), 'hosting-zig-cache-'));
  const check = () => spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-windows-launcher.js'), '--check'], {
    encoding: 'utf8', env: { ...process.env, CDKTF_SERVER_HOSTING_CACHE_DIR: cache }, timeout: 300_000,
  });
  try {
    const first = check();
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    const dir = join(cache, 'ziglang-0.17.1-wheel');
    const [wheel] = readdirSync(dir);
    appendFileSync(join(dir, wheel), 'substituted');
    const second = check();
    expect(second.status).toBe(0);
    expect(second.stdout).toContain(`the cached ${join(dir, wheel)} is not a zig 0.17.1 wheel this build pins (SHA-256 `);
    expect(second.stdout).toContain('removing it and downloading it again');
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}, 600_000);
