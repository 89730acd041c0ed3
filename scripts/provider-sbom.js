// The CycloneDX SBOM of the standalone provider: what each executable contains, which is Node (the
// npm package of that platform's binary, with the executable's own hash) and the npm packages
// esbuild put into the programs it runs, the standalone bundles (from their own metafiles, so a
// package the bundles leave out is not listed). Written with OWASP's @cyclonedx/cyclonedx-library; its timestamp is the
// commit's and its serial number a hash of its content, so the same commit gives the same file.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const CDX = require('@cyclonedx/cyclonedx-library');
const { bundledPackages } = require('./bundled-packages');

const root = join(__dirname, '..');
const builder = new CDX.Contrib.FromNodePackageJson.Builders.ComponentBuilder(
  new CDX.Contrib.FromNodePackageJson.Factories.ExternalReferenceFactory(),
  new CDX.Contrib.License.Factories.LicenseFactory(),
);

/** The package.json of each npm package with a file in the standalone bundles. */
const standaloneManifests = async () => (await bundledPackages(['standalone', 'standalone-cli'])).map((p) => p.manifest);

const npmPurl = (name, version) => `pkg:npm/${name.startsWith('@') ? `%40${name.slice(1)}` : name}@${version}`;

function component(manifest, type = CDX.Enums.ComponentType.Library) {
  const made = builder.makeComponent(manifest, type);
  made.purl = npmPurl(manifest.name, manifest.version);
  made.bomRef.value = made.purl;
  return made;
}

/**
 * The SBOM for `version`, as JSON text. `nodePackages` maps each platform to the npm package its
 * Node binary came from (`{ npmPackage, release }`), `executables` to the executable's bytes.
 */
async function providerSbom({ version, nodePackages, executables, sourceDateEpoch }) {
  const bom = new CDX.Models.Bom();
  const self = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  bom.metadata.timestamp = new Date(Number(sourceDateEpoch) * 1000);
  bom.metadata.component = new CDX.Models.Component(CDX.Enums.ComponentType.Application, 'terraform-provider-hosting', {
    version,
    description: `The hosting Terraform provider of ${self.name}, one standalone executable per platform`,
    bomRef: `terraform-provider-hosting@${version}`,
  });
  for (const manifest of await standaloneManifests()) bom.components.add(component(manifest));
  for (const [platform, { npmPackage, release }] of Object.entries(nodePackages)) {
    const node = new CDX.Models.Component(CDX.Enums.ComponentType.Platform, npmPackage, {
      version: release,
      description: `The Node.js runtime inside terraform-provider-hosting_v${version} for ${platform}`,
      bomRef: npmPurl(npmPackage, release),
    });
    node.purl = npmPurl(npmPackage, release);
    node.hashes.set(CDX.Enums.HashAlgorithm['SHA-256'], createHash('sha256').update(executables.get(platform)).digest('hex'));
    node.licenses.add(new CDX.Models.SpdxLicense('MIT'));
    bom.components.add(node);
  }
  const serializer = new CDX.Serialize.JsonSerializer(new CDX.Serialize.JSON.Normalize.Factory(CDX.Spec.Spec1dot6));
  const unnumbered = serializer.serialize(bom, { sortLists: true, space: 2 });
  const digest = createHash('sha256').update(unnumbered).digest('hex');
  bom.serialNumber = `urn:uuid:${digest.slice(0, 8)}-${digest.slice(8, 12)}-5${digest.slice(13, 16)}-8${digest.slice(17, 20)}-${digest.slice(20, 32)}`;
  return `${serializer.serialize(bom, { sortLists: true, space: 2 })}\n`;
}

module.exports = { providerSbom };

if (require.main === module) {
  // A look at the package list: node scripts/provider-sbom.js
  standaloneManifests().then((list) => list.forEach((m) => console.log(`${m.name}@${m.version} ${m.license ?? ''}`)), (err) => {
    console.error(err);
    process.exit(1);
  });
}
