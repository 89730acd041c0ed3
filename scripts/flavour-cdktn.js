// The CDK Terrain flavour: `cdktn-server-hosting`, the same library for `cdktn` (cdktf's living
// continuation, which keeps its API). It is the built library with its one seam,
// lib/constructs/cdk.js (and .d.ts), pointing at `cdktn` instead of `cdktf`, packed with the same
// provider and handler bundles into dist/js/cdktn-server-hosting-<version>.tgz. No second source tree.
const { spawnSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stage = join(root, 'dist', 'cdktn');
const out = join(root, 'dist', 'js');

// The library, .jsii and bundles up to date (built only when stale, as before a pack).
const prepack = spawnSync(process.execPath, [join(__dirname, 'prepack.js')], { cwd: root, stdio: 'inherit' });
if (prepack.status !== 0) process.exit(prepack.status ?? 1);

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
for (const entry of ['lib', 'assets', 'bin', 'LICENSE', 'README.md']) cpSync(join(root, entry), join(stage, entry), { recursive: true });
const source = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const dep of source.bundledDependencies) cpSync(join(root, 'node_modules', dep), join(stage, 'node_modules', dep), { recursive: true });

// The seam, and a check that nothing else names cdktf.
for (const file of ['cdk.js', 'cdk.d.ts']) {
  const path = join(stage, 'lib', 'constructs', file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(/(["'])cdktf(\/lib\/synthesize\/synthesizer)?\1/g, (_, q, sub) => `${q}cdktn${sub ?? ''}${q}`));
}
const files = (dir) => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
// tsc writes module names in double quotes; text in strings (adopt's programs) is not an import.
const left = files(join(stage, 'lib')).filter((f) => /(require\(|from |import\()"cdktf("|\/)/.test(readFileSync(f, 'utf8')));
if (left.length) {
  process.stderr.write(`flavour-cdktn: still importing cdktf after the seam was switched: ${left.join(', ')}\n`);
  process.exit(1);
}

const keep = ['version', 'license', 'author', 'repository', 'engines', 'main', 'types', 'exports', 'typesVersions', 'bin', 'dependencies', 'bundledDependencies', 'publishConfig'];
const manifest = {
  name: 'cdktn-server-hosting',
  description: source.description.replace('CDK for Terraform', 'CDK Terrain (cdktn)'),
  keywords: [...source.keywords.filter((k) => k !== 'cdktf'), 'cdktn', 'cdk-terrain'],
  ...Object.fromEntries(keep.filter((k) => source[k] !== undefined).map((k) => [k, source[k]])),
  peerDependencies: { cdktn: '^0.24.0', constructs: '>=10.6.0 <10.8.0' },
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

mkdirSync(out, { recursive: true });
const pack = spawnSync('npm', ['pack', '--pack-destination', out, '--ignore-scripts'], { cwd: stage, encoding: 'utf8' });
if (pack.status !== 0) {
  process.stderr.write(pack.stderr);
  process.exit(pack.status ?? 1);
}
const tarball = join(out, pack.stdout.trim().split('\n').pop());
if (!existsSync(tarball)) {
  process.stderr.write(`flavour-cdktn: npm pack wrote no ${tarball}\n`);
  process.exit(1);
}
process.stdout.write(`cdktn flavour: ${tarball} (${Math.round(statSync(tarball).size / 1024)} KiB)\n`);
