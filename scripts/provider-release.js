// The provider's release files, as the Terraform Registry ingests them, into the given folder
// (dist/provider): a zip of the standalone executable (and its third-party notices) per platform, the manifest, SHA256SUMS, its
// and the SBOM (listed in SHA256SUMS, so the signature covers it too). Unsigned: the build and its
// tests never see the signing key; the release workflow signs SHA256SUMS in a job of its own
// (scripts/ci/sign-provider-release.sh). The same commit gives the same bytes (SOURCE_DATE_EPOCH,
// else the commit's time).
const { spawnSync } = require('node:child_process');
const { mkdirSync, rmSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { executableNotices, nodeBinaryPackage, standaloneExecutables } = require('../lib/cli/standalone-executable');
const { defaultCacheDir } = require('../lib/cli/user-cache');
const { PLATFORMS, providerVersion, readProviderBundle, readStandaloneProgram, standalonePackage } = require('../lib/contract/provider-mirror');
const { providerRelease } = require('../lib/contract/provider-release');
const { providerSbom } = require('./provider-sbom');

const sourceDateEpoch = () => process.env.SOURCE_DATE_EPOCH
  || spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: join(__dirname, '..'), encoding: 'utf8' }).stdout.trim()
  || '0';

async function main(out) {
  const version = providerVersion(readProviderBundle());
  // Built by this run, never taken from a cache: these are the bytes the release signs.
  const build = { cacheDir: defaultCacheDir(), log: (line) => console.log(`  ${line}`) };
  const executables = standaloneExecutables(readStandaloneProgram(), PLATFORMS, build);
  // Each zip carries the licences of what its executable holds: the bundled packages, and Node.
  const notices = executableNotices(build);
  const sbom = await providerSbom({
    version,
    executables,
    nodePackages: Object.fromEntries(PLATFORMS.map((platform) => [platform, nodeBinaryPackage(platform)])),
    sourceDateEpoch: sourceDateEpoch(),
  });
  const release = providerRelease(standalonePackage(version, executables, notices), new Map([[`terraform-provider-hosting_${version}_sbom.cdx.json`, Buffer.from(sbom)]]));
  const { files } = release;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const [name, data] of files) writeFileSync(join(out, name), data);
  console.log(`provider release ${version} in ${out}: ${files.size} files, unsigned (a release signs SHA256SUMS in its own job: scripts/ci/sign-provider-release.sh)`);
}

main(resolve(process.argv[2] ?? 'dist/provider')).catch((err) => {
  console.error(`provider-release: ${err.message}`);
  process.exit(1);
});
