// The provider's release files, as the Terraform Registry ingests them, into the given folder
// (dist/provider): a zip of the standalone executable per platform, the manifest, SHA256SUMS, its
// detached signature, and the SBOM (listed in SHA256SUMS, so the signature covers it too).
// Signed with the key in HOSTING_RELEASE_SIGNING_KEY (passphrase: HOSTING_RELEASE_SIGNING_PASSPHRASE);
// a release (RELEASE=true, as `npx projen release` sets) without a key fails, an ordinary build
// writes the files unsigned. The same commit gives the same bytes (SOURCE_DATE_EPOCH, else the commit's time).
const { spawnSync } = require('node:child_process');
const { mkdirSync, rmSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { releaseSigner, signedRelease, SIGNING_KEY_VARIABLE, SIGNING_PASSPHRASE_VARIABLE } = require('../lib/cli/release-signing');
const { defaultCacheDir, nodeBinaryPackage, standaloneExecutables } = require('../lib/cli/standalone-executable');
const { PLATFORMS, providerVersion, readProviderBundle, readStandaloneProgram, standalonePackage } = require('../lib/contract/provider-mirror');
const { providerRelease } = require('../lib/contract/provider-release');
const { providerSbom } = require('./provider-sbom');

const sourceDateEpoch = () => process.env.SOURCE_DATE_EPOCH
  || spawnSync('git', ['log', '-1', '--format=%ct'], { cwd: join(__dirname, '..'), encoding: 'utf8' }).stdout.trim()
  || '0';

async function main(out) {
  const key = process.env[SIGNING_KEY_VARIABLE];
  if (!key && process.env.RELEASE === 'true') {
    throw new Error(`a release is signed: set ${SIGNING_KEY_VARIABLE} to the ASCII-armoured private key (and ${SIGNING_PASSPHRASE_VARIABLE} to its passphrase, if it has one); RELEASING.md says how`);
  }
  const signer = key ? await releaseSigner(key, process.env[SIGNING_PASSPHRASE_VARIABLE], SIGNING_KEY_VARIABLE) : undefined;
  const version = providerVersion(readProviderBundle());
  const executables = standaloneExecutables(readStandaloneProgram(), PLATFORMS, { cacheDir: defaultCacheDir(), log: (line) => console.log(`  ${line}`) });
  const sbom = await providerSbom({
    version,
    executables,
    nodePackages: Object.fromEntries(PLATFORMS.map((platform) => [platform, nodeBinaryPackage(platform)])),
    sourceDateEpoch: sourceDateEpoch(),
  });
  const release = providerRelease(standalonePackage(version, executables), new Map([[`terraform-provider-hosting_${version}_sbom.cdx.json`, Buffer.from(sbom)]]));
  const { files } = signer ? await signedRelease(release, signer) : release;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const [name, data] of files) writeFileSync(join(out, name), data);
  console.log(`provider release ${version} in ${out}: ${files.size} files, ${signer ? `signed with key ID ${signer.keyId}` : `not signed (no ${SIGNING_KEY_VARIABLE}; an ordinary build needs none)`}`);
}

main(resolve(process.argv[2] ?? 'dist/provider')).catch((err) => {
  console.error(`provider-release: ${err.message}`);
  process.exit(1);
});
