// The release the docs name (README.md and docs/): the HCL constraint `~> MAJOR.MINOR` and the
// files, tags and paths of one release (`terraform-provider-hosting_1.10.0_linux_amd64.zip`, …).
// `npx projen release` stamps them with the version it bumped to before it builds, so the packages
// carry docs of their own version, and puts them back after (the release leaves the tree as it
// was); the docs test checks that every mention names one release, the package's in a release build.
//   node scripts/docs-version.js stamp     names package.json's version (nothing for 0.0.0)
//   node scripts/docs-version.js restore   puts back the committed docs
const { execFileSync } = require('node:child_process');
const { readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const ROOT = join(__dirname, '..');
const FULL = '(\\d+\\.\\d+\\.\\d+)';
/** Where a doc names a release: each pattern's group 1 is the version, whole or MAJOR.MINOR. */
const MENTIONS = [
  /~> (\d+\.\d+)(?![.\d])/g,
  new RegExp(`terraform-provider-hosting_v?${FULL}`, 'g'),
  new RegExp(`/download/v${FULL}/`, 'g'),
  new RegExp(`cdktf-server-hosting@${FULL}`, 'g'),
  new RegExp(`hosting/${FULL}/`, 'g'),
  new RegExp(`hosting v${FULL}`, 'g'),
  new RegExp(`installs ${FULL}`, 'g'),
];

/** The documents that name a release, and the source docs/index.md is generated from (scripts/provider-docs.js). */
function docFiles(dir = join(ROOT, 'docs')) {
  const below = readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? docFiles(join(dir, name)) : name.endsWith('.md') ? [join(dir, name)] : []));
  return dir === join(ROOT, 'docs') ? [join(ROOT, 'README.md'), join(ROOT, 'scripts', 'provider-docs-guide.md'), ...below] : below;
}

/** Every release `text` names, as written (`1.10` or `1.10.0`). */
function mentionsIn(text) {
  return MENTIONS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]));
}

/** `text` naming `version` wherever it names a release. */
function stamp(text, version) {
  const minor = version.split('.').slice(0, 2).join('.');
  return MENTIONS.reduce((out, pattern) => out.replace(pattern, (match, found) => match.replace(found, found.split('.').length === 2 ? minor : version)), text);
}

module.exports = { docFiles, mentionsIn, stamp };

if (require.main === module) {
  const verb = process.argv[2];
  if (verb === 'restore') {
    execFileSync('git', ['checkout', '--', ...docFiles().map((file) => relative(ROOT, file))], { cwd: ROOT, stdio: 'inherit' });
  } else if (verb === 'stamp') {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    if (version !== '0.0.0') {
      for (const file of docFiles()) writeFileSync(file, stamp(readFileSync(file, 'utf8'), version));
      process.stdout.write(`docs-version: README.md and docs/ name ${version}\n`);
    }
  } else {
    process.stderr.write('usage: node scripts/docs-version.js stamp|restore\n');
    process.exit(2);
  }
}
