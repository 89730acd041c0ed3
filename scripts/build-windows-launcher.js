// Builds the Windows launcher of the script provider (windows-launcher/launcher.c) for windows_amd64
// and windows_arm64 with zig, a C compiler that targets Windows from Linux, from PyPI (pinned by
// hash: the wheel cached beside the Node binaries, checked on every use). The build is
// reproducible, so the .exe files are committed, like API.md: `npm test` and users' builds need no
// compiler, and `--check` (the package step) rebuilds them and fails when the committed bytes are not
// what the source builds to.
// Usage: node scripts/build-windows-launcher.js [--check]
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const ZIG = {
  release: '0.17.1',
  // The manylinux wheels (x86_64, aarch64): the launcher is built on Linux.
  hashes: ['ea6cc5d87b033cf0aedfbc8f9549a908cae6c50ac31f1698188fa48a74524b54', 'b7c5f02fccd40f89b999ee16a1f5ddced56e6182370f8affe494bcf8a28cf07e'],
};
const TARGETS = { windows_amd64: 'x86_64-windows-gnu', windows_arm64: 'aarch64-windows-gnu' };
const root = join(__dirname, '..');
const source = join(root, 'windows-launcher', 'launcher.c');
const check = process.argv.includes('--check');

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error || result.status !== 0) {
    process.stderr.write(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr || result.stdout}\n`);
    process.exit(1);
  }
  return result.stdout;
}

const sha256Of = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * The zig wheel (about 100 MB from PyPI), downloaded once into the cache and checked against its
 * pinned hash on every use: a cache restored from CI or shared with others could otherwise swap
 * the compiler that builds a committed, shipped .exe. One that differs is removed and downloaded
 * again. The download goes to a folder of its own with an unpredictable name, renamed into place.
 */
function zigWheel(cache) {
  const dir = join(cache, `ziglang-${ZIG.release}-wheel`);
  const cached = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.whl')) : [];
  if (cached.length === 1) {
    const actual = sha256Of(join(dir, cached[0]));
    if (ZIG.hashes.includes(actual)) return join(dir, cached[0]);
    console.log(`  the cached ${join(dir, cached[0])} is not a zig ${ZIG.release} wheel this build pins (SHA-256 ${actual}): removing it and downloading it again`);
  }
  rmSync(dir, { recursive: true, force: true });
  console.log(`  downloading zig ${ZIG.release} from PyPI into ${dir} (about 100 MB, once)`);
  mkdirSync(cache, { recursive: true });
  const building = mkdtempSync(join(cache, '.tmp-zig-'));
  const requirements = join(work, 'zig-requirements.txt');
  writeFileSync(requirements, `ziglang==${ZIG.release} ${ZIG.hashes.map((h) => `--hash=sha256:${h}`).join(' ')}\n`);
  run('python3', ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:', '--require-hashes', '-r', requirements, '-d', building]);
  renameSync(building, dir);
  return zigWheel(cache);
}

/** A python with zig, in a venv of this run's own (a few seconds), installed from the checked wheel alone. */
function zigPython() {
  const cache = process.env.CDKTF_SERVER_HOSTING_CACHE_DIR || join(root, 'node_modules', '.cache', 'cdktf-server-hosting');
  const wheel = zigWheel(cache);
  const venv = join(work, 'venv');
  run('python3', ['-m', 'venv', venv]);
  run(join(venv, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-index', '--no-deps', wheel]);
  return join(venv, 'bin', 'python');
}

function build(python, target, out) {
  const zigLib = run(python, ['-c', 'import ziglang, os; print(os.path.dirname(ziglang.__file__))']).trim();
  // No C runtime (kernel32 alone): -nostdlib drops mingw's headers too, so they are named.
  run(python, ['-m', 'ziglang', 'cc', '-target', target, '-Os', '-s', '-ffreestanding', '-fno-builtin', '-nostdlib', '-Wall', '-Wextra', '-Werror',
    '-I', join(zigLib, 'lib', 'libc', 'include', 'any-windows-any'), '-Wl,--entry=start', '-lkernel32', '-o', out, source]);
}

const work = mkdtempSync(join(tmpdir(), 'hosting-launcher-'));
const stale = [];
try {
  const python = zigPython();
  for (const [platform, target] of Object.entries(TARGETS)) {
    const built = join(work, `${platform}.exe`);
    build(python, target, built);
    const committed = join(root, 'windows-launcher', `${platform}.exe`);
    if (check) {
      if (!existsSync(committed) || !readFileSync(committed).equals(readFileSync(built))) stale.push(`windows-launcher/${platform}.exe`);
    } else {
      copyFileSync(built, committed);
    }
    console.log(`  ${platform}: ${readFileSync(built).length} bytes`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (stale.length) {
  process.stderr.write(`${stale.join(', ')}: not what windows-launcher/launcher.c builds to; run "npx projen windows-launcher" and commit the result\n`);
  process.exit(1);
}
