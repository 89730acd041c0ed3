// npm runs this before `npm pack` and `npm publish`: a tarball must always hold the compiled
// library, its .jsii manifest and the handler bundle. On a fresh clone none of them exists yet, so
// they are built here; when they exist and are newer than every source file, nothing is rebuilt
// (jsii-pacmak calls `npm pack` itself, right after a build). `npm test` runs it too, before jest:
// suites that synthesize through lib/ find it built once.
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const outputs = ['.jsii', 'lib/index.js', 'lib/index.d.ts', 'assets/handler/index.js', 'assets/provider/provider.js', 'assets/standalone/standalone.js', 'assets/standalone/cli.js'].map((f) => join(root, f));

const newestSource = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const full = join(dir, entry.name);
    return Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }, 0);

const upToDate = outputs.every((f) => existsSync(f) && statSync(f).mtimeMs >= newestSource(join(root, 'src')));
if (!upToDate) {
  process.stdout.write('prepack: building the library (bundles, jsii): it is missing or older than src/\n');
  const build = spawnSync('npx', ['projen', 'compile'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const missing = outputs.filter((f) => !existsSync(f));
if (missing.length) {
  process.stderr.write(`prepack: the package would be incomplete; missing: ${missing.join(', ')}\n`);
  process.exit(1);
}
