// What installing the package costs a user, side by side for each build given: the npm tarball's
// size packed and unpacked, and the time and disk space `npm install` of it adds to a fresh cdktf
// project (cdktf and constructs installed first, the baseline); for a wheel, what `pip install` of
// it adds to a venv that has cdktf already. npm's and pip's caches are warm after the baseline, so
// the figures are the package's own download and unpack, not the network's.
// Usage: node bench/package-install.js <tarball.tgz | wheel.whl>...
const { spawnSync } = require('node:child_process');
const { mkdtempSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const files = process.argv.slice(2).map((file) => resolve(file));
if (files.length === 0) {
  process.stderr.write('usage: node bench/package-install.js <tarball.tgz | wheel.whl>...\n');
  process.exit(64);
}

function run(command, args, cwd) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, stdout: result.stdout };
}

const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const diskBytes = (dir) => Number(run('du', ['-sb', dir]).stdout.split('\t')[0]);

function unpackedBytes(file) {
  const listing = run('tar', ['-tvzf', file]).stdout.trim().split('\n');
  return listing.reduce((sum, line) => sum + Number(line.split(/\s+/)[2] || 0), 0);
}

function npmInstall(tarball) {
  const project = mkdtempSync(join(tmpdir(), 'bench-npm-'));
  try {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bench', private: true, dependencies: { cdktf: '0.21.0', constructs: '10.4.2' } }));
    const quiet = ['--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'];
    run('npm', ['install', ...quiet], project);
    const before = diskBytes(join(project, 'node_modules'));
    const { seconds } = run('npm', ['install', ...quiet, tarball], project);
    return { packed: statSync(tarball).size, unpacked: unpackedBytes(tarball), seconds, added: diskBytes(join(project, 'node_modules')) - before };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

function pipInstall(wheel) {
  const work = mkdtempSync(join(tmpdir(), 'bench-pip-'));
  try {
    run('python3', ['-m', 'venv', join(work, 'venv')]);
    const pip = join(work, 'venv', 'bin', 'pip');
    run(pip, ['install', '--disable-pip-version-check', '-q', 'cdktf==0.21.0']);
    const before = diskBytes(join(work, 'venv'));
    const { seconds } = run(pip, ['install', '--disable-pip-version-check', '-q', '--no-deps', wheel]);
    const added = diskBytes(join(work, 'venv')) - before;
    // jsii's runtime unpacks the package's npm tarball in every Python process that imports it.
    const module = wheel.split('/').pop().split('-')[0];
    const imports = [1, 2, 3].map(() => run(join(work, 'venv', 'bin', 'python'), ['-c', `import ${module}`]).seconds).sort();
    return { packed: statSync(wheel).size, unpacked: undefined, seconds, added, importSeconds: imports[1] };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.stdout.write('file | packed | unpacked | install time | added on disk | Python import (median of 3)\n--- | --- | --- | --- | --- | ---\n');
for (const file of files) {
  const figures = file.endsWith('.whl') ? pipInstall(file) : npmInstall(file);
  const unpacked = figures.unpacked === undefined ? '-' : megabytes(figures.unpacked);
  process.stdout.write(`${file.split('/').slice(-2).join('/')} | ${megabytes(figures.packed)} | ${unpacked} | ${figures.seconds.toFixed(1)} s | ${megabytes(figures.added)} | ${figures.importSeconds === undefined ? '-' : `${figures.importSeconds.toFixed(2)} s`}\n`);
}
