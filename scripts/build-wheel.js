// Builds the Python wheel from the sources jsii-pacmak generated (package:python task), offline:
// `pip wheel --no-build-isolation` needs setuptools and wheel in the interpreter itself, because
// build isolation would download them. Uses the first python3 on PATH (or $PYTHON) that has both,
// and says what is missing when none has.
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { delimiter, join } = require('node:path');

const [sourceDir, wheelDir] = process.argv.slice(2);
if (!sourceDir || !wheelDir) {
  process.stderr.write('usage: node scripts/build-wheel.js <python source dir> <wheel dir>\n');
  process.exit(64);
}

const candidates = [
  process.env.PYTHON,
  ...(process.env.PATH ?? '').split(delimiter).filter(Boolean).flatMap((dir) => ['python3', 'python'].map((name) => join(dir, name))),
].filter((file, i, all) => file && all.indexOf(file) === i && (file === process.env.PYTHON || existsSync(file)));

const tried = [];
for (const python of candidates) {
  const probe = spawnSync(python, ['-c', 'import sys, setuptools, wheel; assert sys.version_info >= (3, 8)'], { encoding: 'utf8' });
  if (probe.status === 0) {
    const build = spawnSync(python, ['-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '--wheel-dir', wheelDir, '.'], { cwd: sourceDir, stdio: 'inherit' });
    process.exit(build.status ?? 1);
  }
  tried.push(`${python}: ${(probe.stderr || probe.error?.message || 'not usable').trim().split('\n').pop()}`);
}
process.stderr.write(
  'No Python 3.8+ interpreter with setuptools and wheel was found, so the wheel cannot be built offline.\n' +
  `Tried:\n${tried.map((t) => `  ${t}`).join('\n') || '  (no python3 or python on PATH)'}\n` +
  'Install them (e.g. "apt-get install python3-setuptools python3-wheel" or "pip install setuptools wheel"), or point PYTHON at an interpreter that has them.\n',
);
process.exit(1);
