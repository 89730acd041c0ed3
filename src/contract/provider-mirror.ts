import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROVIDER_SOURCE, PROVIDER_TYPE } from './provider-address';
import { zipArchive, type ZipEntry } from './zip-archive';

/*
 * The provider package in Terraform's mirror layouts. Unpacked,
 * `<root>/<hostname>/<namespace>/<type>/<version>/<os>_<arch>/`: the stack's implied local mirror
 * (`terraform.d/plugins`) and a filesystem mirror of plain HCL users. Packed, as `terraform
 * providers mirror` writes it: one zip per platform beside `index.json` and `<version>.json`
 * (with `zh:` hashes), which Terraform installs from as a filesystem mirror or, served over HTTPS,
 * as a network mirror.
 */

/** The provider bundle, found by file path (never imported): `<package>/assets/provider/provider.js`. */
export const PROVIDER_BUNDLE_PATH = join(__dirname, '..', '..', 'assets', 'provider', 'provider.js');

const PLATFORMS = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64'];

/** The package's own manifest, found by file path: `<package>/package.json`. */
const PACKAGE_JSON_PATH = join(__dirname, '..', '..', 'package.json');

/**
 * The provider's version is the package's, so `~>` constraints and upgrades work as users expect. A
 * development build (version `0.0.0`, never released) is `0.0.<first 28 bits of the bundle's
 * sha256>`: Terraform's lock file records the package's hash, and a changed package under an
 * unchanged version would fail every later plan. Not a pre-release suffix: Terraform never selects
 * a pre-release for a configuration that names no exact version (an adopted main.tf, say).
 */
export function providerVersion(bundle: Buffer, packageVersion = readPackageVersion()): string {
  if (packageVersion !== '0.0.0') return packageVersion;
  return `0.0.${parseInt(createHash('sha256').update(bundle).digest('hex').slice(0, 7), 16)}`;
}

function readPackageVersion(): string {
  return (JSON.parse(readFileSync(PACKAGE_JSON_PATH, 'utf8')) as { version: string }).version;
}

export function readProviderBundle(): Buffer {
  if (!existsSync(PROVIDER_BUNDLE_PATH)) {
    throw new Error(`The provider bundle is missing at ${PROVIDER_BUNDLE_PATH}; build it with "npx projen bundle:provider" (installed packages ship it)`);
  }
  return readFileSync(PROVIDER_BUNDLE_PATH);
}

/**
 * Writes the package for every platform below `root`. The whole package stays inside its folder:
 * the lock file's hash covers it, and a wrapper pointing elsewhere would leave the bundle unchecked.
 */
export function writeProviderMirror(root: string, bundle: Buffer, version = providerVersion(bundle), source = PROVIDER_SOURCE): void {
  for (const platform of PLATFORMS) {
    const dir = join(root, ...source.split('/'), version, platform);
    mkdirSync(dir, { recursive: true });
    for (const file of packageFiles(bundle, version)) {
      writeFileSync(join(dir, file.name), file.data);
      chmodSync(join(dir, file.name), file.mode);
    }
  }
}

/** The files of the package, the same on every platform: a `#!/bin/sh` wrapper that runs node on the bundle beside it. */
export function packageFiles(bundle: Buffer, version: string): ZipEntry[] {
  return [
    { name: `terraform-provider-${PROVIDER_TYPE}_v${version}`, data: Buffer.from('#!/bin/sh\nexec node "$(dirname "$0")/provider.js" "$@"\n'), mode: 0o755 },
    { name: 'provider.js', data: bundle, mode: 0o644 },
  ];
}

/** The versions an existing `index.json` lists; none when there is none. */
function versionsIn(index: string): Record<string, object> {
  if (!existsSync(index)) return {};
  const parsed = JSON.parse(readFileSync(index, 'utf8')) as { versions?: Record<string, object> };
  if (typeof parsed.versions !== 'object' || parsed.versions === null) throw new Error(`${index} is not a mirror index (no "versions" object); move it away or write the mirror elsewhere`);
  return parsed.versions;
}

/**
 * Writes the packed layout below `root` (`<hostname>/<namespace>/<type>/`): a zip per platform,
 * `index.json` and `<version>.json` listing each zip with its `zh:` hash (the SHA-256 of the zip).
 * Versions already in the folder stay listed: a shared mirror serves every version some stack's lock
 * file pins. Returns the zips' paths.
 */
export function writePackedProviderMirror(root: string, bundle: Buffer, version = providerVersion(bundle), source = PROVIDER_SOURCE): string[] {
  const dir = join(root, ...source.split('/'));
  mkdirSync(dir, { recursive: true });
  const zip = zipArchive(packageFiles(bundle, version));
  const hash = `zh:${createHash('sha256').update(zip).digest('hex')}`;
  const archives: Record<string, { url: string; hashes: string[] }> = {};
  for (const platform of PLATFORMS) {
    const file = `terraform-provider-${PROVIDER_TYPE}_${version}_${platform}.zip`;
    writeFileSync(join(dir, file), zip);
    archives[platform] = { url: file, hashes: [hash] };
  }
  writeFileSync(join(dir, 'index.json'), `${JSON.stringify({ versions: { ...versionsIn(join(dir, 'index.json')), [version]: {} } }, null, 2)}\n`);
  writeFileSync(join(dir, `${version}.json`), `${JSON.stringify({ archives }, null, 2)}\n`);
  return Object.values(archives).map((a) => join(dir, a.url));
}

/**
 * The package's `h1:` hash (Go's dirhash Hash1: the SHA-256 of the sorted lines "<sha256 of the
 * file>  <name>"), what a lock file records for a mirror install. The package is the same on every
 * platform, so this one hash covers all four.
 */
export function packageHash1(bundle: Buffer, version: string): string {
  const summary = packageFiles(bundle, version)
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((f) => `${createHash('sha256').update(f.data).digest('hex')}  ${f.name}\n`)
    .join('');
  return `h1:${createHash('sha256').update(summary).digest('base64')}`;
}

/**
 * A lock file (`.terraform.lock.hcl`) with this provider's entry, for every platform: without it,
 * `terraform init` records the hash of the current platform only and warns "Incomplete lock file
 * information". Entries of other providers in `existing` are kept as they are.
 */
export function lockFileWithProvider(existing: string | undefined, bundle: Buffer, version: string): string {
  // `constraints` as `terraform init` records the stack's exact pin: cdktf-cli reads it to decide
  // that the lock file is current, and without it runs `terraform providers lock`, which cannot
  // reach the provider's (unserved) hostname.
  const entry = `provider "${PROVIDER_SOURCE}" {\n  version     = "${version}"\n  constraints = "${version}"\n  hashes = [\n    "${packageHash1(bundle, version)}",\n  ]\n}\n`;
  const header = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';
  const others = (existing ?? header).replace(new RegExp(`\\n?provider "${PROVIDER_SOURCE.replace(/\./g, '\\.')}" \\{\\n[\\s\\S]*?\\n\\}\\n`), '');
  return `${others.trimEnd()}\n\n${entry}`;
}

/** What a plain HCL user pastes: the CLI configuration block, and the `required_providers` entry. */
export function mirrorInstructions(root: string, version: string, source = PROVIDER_SOURCE): string {
  const host = source.split('/')[0];
  return [
    '# In the Terraform CLI configuration (~/.terraformrc, or the file TF_CLI_CONFIG_FILE names):',
    'provider_installation {',
    '  filesystem_mirror {',
    `    path    = ${JSON.stringify(root)}`,
    `    include = ["${host}/*/*"]`,
    '  }',
    '  direct {',
    `    exclude = ["${host}/*/*"]`,
    '  }',
    '}',
    '',
    '# In the configuration:',
    'terraform {',
    '  required_providers {',
    `    ${PROVIDER_TYPE} = {`,
    `      source  = "${source}"`,
    `      version = "${version}"`,
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}
