import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'build-wheel.js');

/** The wheel builds with whichever python3 is on PATH; without a usable one, it says what to install. */
describe('scripts/build-wheel.js', () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-wheel-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (env: Record<string, string>) => spawnSync(process.execPath, [SCRIPT, dir, join(dir, 'out')], { encoding: 'utf8', env });

  test('no python on PATH: exit 1, naming what to install', () => {
    const res = run({ PATH: join(dir, 'empty') });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('No Python 3.10+ interpreter was found, so the wheel cannot be built.');
    expect(res.stderr).toContain('(no python3 or python on PATH)');
    expect(res.stderr).toContain('apt-get install python3 python3-venv');
  });

  test('a python that cannot run is passed over and named with the reason', () => {
    const fake = join(dir, 'bin');
    rmSync(fake, { recursive: true, force: true });
    mkdirSync(fake);
    writeFileSync(join(fake, 'python3'), '#!/bin/sh\necho "AssertionError: Python 3.10 or newer is needed" >&2\nexit 1\n');
    chmodSync(join(fake, 'python3'), 0o755);
    const res = run({ PATH: fake });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`${join(fake, 'python3')}: AssertionError: Python 3.10 or newer is needed`);
  });
});
