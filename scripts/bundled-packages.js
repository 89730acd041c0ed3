// The npm packages esbuild put into the program bundles (from the bundles' own metafiles, so a
// package a bundle leaves out is not listed), each with its folder and its manifest, and its entry
// in the lock file: what the SBOM and the third-party notices describe.
const { existsSync, readFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');
const { bundleInputs } = require('./bundle');

const root = join(__dirname, '..');

/** `{ name, version, dir, manifest, locked }` for each npm package with a file in the bundles of `targets`. */
async function bundledPackages(targets) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;
  const found = new Map();
  for (const target of targets) {
    for (const input of await bundleInputs(target)) {
      const parts = input.split(sep);
      const at = parts.lastIndexOf('node_modules');
      if (at < 0) continue;
      const name = parts[at + 1].startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
      const dir = join(root, ...parts.slice(0, at + 1), ...name.split('/'));
      if (found.has(dir) || !existsSync(join(dir, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      found.set(dir, { name, version: manifest.version, dir, manifest, locked: lock[relative(root, dir).split(sep).join('/')] });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

module.exports = { bundledPackages };
