// Builds the Windows launcher of the script provider (windows-launcher/launcher.c) for windows_amd64
// and windows_arm64 with zig, a C compiler that targets Windows from Linux, from PyPI (pinned by
// hash, in a venv cached beside the Node binaries). The build is reproducible, so the .exe files are
// committed, like API.md: `npm test` and users' builds need no compiler, and `--check` (the package
// step) rebuilds them and fails when the committed bytes are not what the source builds to.
// Usage: node scripts/build-windows-launcher.js [--check]
const { spawnSync } = require('node:child_process');
const { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
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

/** The venv's python, with zig installed once (about 100 MB from PyPI). */
function zigPython() {
  const cache = process.env.CDKTF_SERVER_HOSTING_CACHE_DIR || join(root, 'node_modules', '.cache', 'cdktf-server-hosting');
  const venv = join(cache, `ziglang-${ZIG.release}`);
  if (!existsSync(join(venv, 'bin', 'python'))) {
    console.log(`  installing zig ${ZIG.release} from PyPI into ${venv} (about 100 MB, once)`);
    const building = `${venv}.${process.pid}`;
    run('python3', ['-m', 'venv', building]);
    const requirements = join(building, 'requirements.txt');
    writeFileSync(requirements, `ziglang==${ZIG.release} ${ZIG.hashes.map((h) => `--hash=sha256:${h}`).join(' ')}\n`);
    run(join(building, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--require-hashes', '-r', requirements]);
    rmSync(venv, { recursive: true, force: true });
    renameSync(building, venv);
  }
  return join(venv, 'bin', 'python');
}

function build(python, target, out) {
  const zigLib = run(python, ['-c', 'import ziglang, os; print(os.path.dirname(ziglang.__file__))']).trim();
  // No C runtime (kernel32 alone): -nostdlib drops mingw's headers too, so they are named.
  run(python, ['-m', 'ziglang', 'cc', '-target', target, '-Os', '-s', '-ffreestanding', '-fno-builtin', '-nostdlib', '-Wall', '-Wextra', '-Werror',
    '-I', join(zigLib, 'lib', 'libc', 'include', 'any-windows-any'), '-Wl,--entry=start', '-lkernel32', '-o', out, source]);
}

const python = zigPython();
const work = mkdtempSync(join(tmpdir(), 'hosting-launcher-'));
const stale = [];
try {
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
