// The CDK Terrain flavour: `cdktn-server-hosting`, the same library for `cdktn` (cdktf's living
// continuation, which keeps its API). The same src/ with its one seam, constructs/cdk.ts, pointed at
// `cdktn`, compiled by jsii against cdktn in a staging folder (dist/cdktn), then packed as
// dist/js/cdktn-server-hosting-<version>.tgz and built as the wheel
// dist/python/cdktn_server_hosting-<version>-py3-none-any.whl. No second source tree. Does nothing
// when both are newer than every source file.
const { spawnSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stage = join(root, 'dist', 'cdktn');
const CDKTN = { cdktn: '0.24.0', constructs: '10.7.2' };
const source = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const tarball = join(root, 'dist', 'js', `cdktn-server-hosting-${source.version}.tgz`);
const wheel = join(root, 'dist', 'python', `cdktn_server_hosting-${source.version}-py3-none-any.whl`);

const files = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
const newestSource = Math.max(...[...files(join(root, 'src')), ...files(join(root, 'windows-launcher'))].map((f) => statSync(f).mtimeMs), statSync(__filename).mtimeMs);
if ([tarball, wheel].every((f) => existsSync(f) && statSync(f).mtimeMs >= newestSource)) {
  process.stdout.write(`cdktn flavour: up to date (${tarball}, ${wheel})\n`);
  process.exit(0);
}

function run(cmd, args, cwd, env = {}) {
  const res = spawnSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20', ...env } });
  if (res.status !== 0) {
    process.stderr.write(`flavour-cdktn: ${cmd} ${args.join(' ')} failed:\n${res.stdout}${res.stderr}`);
    process.exit(res.status ?? 1);
  }
  return res.stdout;
}

// The bundles the package ships (built only when stale, as before a pack).
run(process.execPath, [join(__dirname, 'prepack.js')], root);

rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'node_modules'), { recursive: true });
for (const entry of ['src', 'assets', 'bin', 'live-page', 'windows-launcher', 'LICENSE', 'README.md', 'tsconfig.json']) cpSync(join(root, entry), join(stage, entry), { recursive: true });
const seam = join(stage, 'src', 'constructs', 'cdk.ts');
writeFileSync(seam, readFileSync(seam, 'utf8').replace(/'cdktf(\/lib\/synthesize\/synthesizer)?'/g, (_, sub) => `'cdktn${sub ?? ''}'`));

// The build tools and types from the repository; cdktn and its constructs from the registry (or npm's cache).
for (const name of readdirSync(join(root, 'node_modules'))) {
  if (['cdktf', 'constructs', '@cdktf'].includes(name)) continue;
  symlinkSync(join(root, 'node_modules', name), join(stage, 'node_modules', name));
}
const packs = join(stage, '.packs');
mkdirSync(packs);
for (const [name, version] of Object.entries(CDKTN)) {
  const file = run('npm', ['pack', `${name}@${version}`, '--pack-destination', packs, '--silent'], stage).trim().split('\n').pop();
  mkdirSync(join(stage, 'node_modules', name));
  run('tar', ['xzf', join(packs, file), '-C', join(stage, 'node_modules', name), '--strip-components=1'], stage);
}
rmSync(packs, { recursive: true });

const keep = ['version', 'license', 'author', 'repository', 'engines', 'main', 'types', 'exports', 'typesVersions', 'dependencies', 'publishConfig', 'stability'];
const manifest = {
  name: 'cdktn-server-hosting',
  description: source.description.replace('CDK for Terraform', 'CDK Terrain (cdktn)'),
  keywords: [...source.keywords.filter((k) => k !== 'cdktf'), 'cdktn', 'cdk-terrain'],
  ...Object.fromEntries(keep.filter((k) => source[k] !== undefined).map((k) => [k, source[k]])),
  peerDependencies: { cdktn: `^${CDKTN.cdktn}`, constructs: '>=10.6.0 <10.8.0' },
  devDependencies: CDKTN,
  // Its own command name: jsii-pacmak makes each `bin` a console script of the wheel, and two wheels
  // with one script name would overwrite each other's in a venv.
  bin: { 'cdktn-server-hosting': source.bin['cdktf-server-hosting'] },
  files: ['lib/**/*.js', 'lib/**/*.d.ts', '.jsii', 'assets/', 'bin/', 'live-page/', 'windows-launcher/', 'LICENSE', 'README.md'],
  jsii: { outdir: 'dist', targets: { python: { distName: 'cdktn-server-hosting', module: 'cdktn_server_hosting' } }, tsconfig: 'tsconfig.json' },
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
// The bundles again, from the stage: each carries the package it ships in (the command says
// cdktn-server-hosting, and adopt writes cdktn programs), and the provider the cdktn seam.
mkdirSync(join(stage, 'scripts'));
for (const script of ['bundle.js', 'undici-slim.js']) cpSync(join(__dirname, script), join(stage, 'scripts', script));
run(process.execPath, [join(stage, 'scripts', 'bundle.js'), 'handler', 'provider', 'standalone', 'standalone-cli'], stage);

run(join(stage, 'node_modules', '.bin', 'jsii'), ['--silence-warnings=reserved-word'], stage);
mkdirSync(join(root, 'dist', 'js'), { recursive: true });
run('npm', ['pack', '--pack-destination', join(root, 'dist', 'js'), '--ignore-scripts', '--silent'], stage);
run(join(stage, 'node_modules', '.bin', 'jsii-pacmak'), ['--target', 'python', '--code-only', '--outdir', join(stage, 'python-src')], stage);
run(process.execPath, [join(__dirname, 'build-wheel.js'), join(stage, 'python-src', 'python'), join(root, 'dist', 'python')], root);
for (const f of [tarball, wheel]) {
  if (!existsSync(f)) {
    process.stderr.write(`flavour-cdktn: ${f} was not written\n`);
    process.exit(1);
  }
}
rmSync(stage, { recursive: true, force: true });
process.stdout.write(`cdktn flavour: ${tarball} (${Math.round(statSync(tarball).size / 1024)} KiB), ${wheel} (${Math.round(statSync(wheel).size / 1024)} KiB)\n`);
