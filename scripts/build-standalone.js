// The standalone provider for every platform as a packed mirror (zips, index.json, <version>.json)
// in the given folder: the artefact a platform team serves as its network mirror. Prints each
// platform's size, unpacked and zipped, and the time the build took (Node binaries are fetched from
// npm once and cached; the executables are built by every run, and a cached one that differs is named).
const { statSync } = require('node:fs');
const { resolve } = require('node:path');
const { standaloneExecutables, NODE_RELEASE } = require('../lib/cli/standalone-executable');
const { defaultCacheDir } = require('../lib/cli/user-cache');
const { PLATFORMS, providerVersion, readProviderBundle, readStandaloneProgram, standalonePackage, writePackedProviderMirror } = require('../lib/contract/provider-mirror');

const out = resolve(process.argv[2] ?? 'dist/standalone');
const started = Date.now();
const version = providerVersion(readProviderBundle());
const executables = standaloneExecutables(readStandaloneProgram(), PLATFORMS, { cacheDir: defaultCacheDir(), log: (line) => console.log(`  ${line}`) });
const built = Date.now();
const zips = writePackedProviderMirror(out, standalonePackage(version, executables));
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
console.log(`standalone provider ${version} (Node ${NODE_RELEASE}) in ${out}:`);
PLATFORMS.forEach((platform, i) => console.log(`  ${platform}: ${mb(executables.get(platform).length)} executable, ${mb(statSync(zips[i]).size)} zipped`));
console.log(`  executables ${((built - started) / 1000).toFixed(1)} s (built by this run, never read from the cache), archives ${((Date.now() - built) / 1000).toFixed(1)} s`);
