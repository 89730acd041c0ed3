import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The npm tarball is an allowlist (package.json's `files`): what a user downloads is the library,
 * its bundles, the command, the live page, the Windows launchers and the docs, never whatever lies at the root of the
 * clone that packed it.
 */

const ROOT = join(__dirname, '..', '..');
const STRAY = ['build.log', '.env', 'signing-key.asc', 'notes.txt'];

function packedFiles(): string[] {
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(pack.status).toBe(0);
  return (JSON.parse(pack.stdout) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
}

test('files left at the root of the clone (a build log, a .env, a key) are not packed', () => {
  for (const name of STRAY) writeFileSync(join(ROOT, name), 'not for the package\n');
  try {
    const files = packedFiles();
    expect(STRAY.filter((name) => files.includes(name))).toEqual([]);
    // lib/ and .jsii exist once jsii has built them (not on a fresh clone before `npm test`): allowed, not required.
    const allowed = ['.jsii', 'API.md', 'API.python.md', 'LICENSE', 'README.md', 'SECURITY.md', 'assets', 'bin', 'docs', 'lib', 'live-page', 'node_modules', 'package.json', 'windows-launcher'];
    const tops = [...new Set(files.map((f) => f.split('/')[0]))];
    expect(tops.filter((top) => !allowed.includes(top))).toEqual([]);
    expect(tops).toEqual(expect.arrayContaining(['API.md', 'LICENSE', 'README.md', 'SECURITY.md', 'bin', 'docs', 'live-page', 'package.json', 'windows-launcher']));
    expect(files).toEqual(expect.arrayContaining(['live-page/index.html', 'live-page/live-page.js', 'live-page/live-page.css', 'live-page/favicon.svg', 'docs/testing/account-file.schema.json',
      'windows-launcher/launcher.c', 'windows-launcher/windows_amd64.exe', 'windows-launcher/windows_arm64.exe']));
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('scripts/'))).toEqual([]);
  } finally {
    for (const name of STRAY) rmSync(join(ROOT, name), { force: true });
  }
});
