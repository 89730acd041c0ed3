import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageManifest } from './package-manifest';
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
const STANDALONE_DIR = join(__dirname, '..', '..', 'assets', 'standalone');
/** The script package's Windows launchers (built from launcher.c there, committed): `<package>/windows-launcher/<platform>.exe`. */
const WINDOWS_LAUNCHER_DIR = join(__dirname, '..', '..', 'windows-launcher');

/** The platforms a mirror serves, in Terraform's `<os>_<arch>` names. */
export const PLATFORMS = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64', 'windows_amd64', 'windows_arm64'] as const;
export type Platform = (typeof PLATFORMS)[number];

const isWindows = (platform: Platform) => platform.startsWith('windows_');

/** One version of the provider: the files Terraform installs, per platform it is built for. */
export interface ProviderPackage {
  readonly version: string;
  readonly files: ReadonlyMap<Platform, readonly ZipEntry[]>;
}

/**
 * The provider's version is the package's, so `~>` constraints and upgrades work as users expect. A
 * development build (version `0.0.0`, never released) is `0.0.<first 28 bits of the bundle's
 * sha256>`: Terraform's lock file records the package's hash, and a changed package under an
 * unchanged version would fail every later plan. Not a pre-release suffix: Terraform never selects
 * a pre-release for a configuration that names no exact version (an adopted main.tf, say).
 */
export function providerVersion(bundle: Buffer, packageVersion = packageManifest().version): string {
  if (packageVersion !== '0.0.0') return packageVersion;
  return `0.0.${parseInt(createHash('sha256').update(bundle).digest('hex').slice(0, 7), 16)}`;
}

export function readProviderBundle(): Buffer {
  return readBundle(PROVIDER_BUNDLE_PATH, 'provider');
}

/**
 * What each standalone executable runs: `main`, the provider when Terraform starts it, and `cli`,
 * the package's command-line tool, which `main` reads from the executable only when run by hand.
 */
export interface StandaloneProgram {
  readonly main: Buffer;
  readonly cli: Buffer;
}

/** The standalone executable's bundles. Its version is the provider bundle's, which a development build takes from the provider's code alone. */
export function readStandaloneProgram(): StandaloneProgram {
  return { main: readBundle(join(STANDALONE_DIR, 'standalone.js'), 'standalone'), cli: readBundle(join(STANDALONE_DIR, 'cli.js'), 'standalone') };
}

function readBundle(path: string, name: string): Buffer {
  return readShippedFile(path, `The ${name} bundle`, `npx projen bundle:${name}`);
}

/** A file the package ships but a clone has only once `build` has run. */
function readShippedFile(path: string, what: string, build: string): Buffer {
  if (!existsSync(path)) throw new Error(`${what} is missing at ${path}; build it with "${build}" (installed packages ship it)`);
  return readFileSync(path);
}

/**
 * Writes the package for each of its platforms below `root`. The whole package stays inside its
 * folder: the lock file's hash covers it, and a wrapper pointing elsewhere would leave the bundle unchecked.
 */
export function writeProviderMirror(root: string, pkg: ProviderPackage, source = PROVIDER_SOURCE): void {
  for (const [platform, files] of pkg.files) {
    const dir = join(root, ...source.split('/'), pkg.version, platform);
    mkdirSync(dir, { recursive: true });
    for (const file of files) {
      writeFileSync(join(dir, file.name), file.data);
      chmodSync(join(dir, file.name), file.mode);
    }
  }
}

/** The name Terraform looks for in a package: `terraform-provider-<type>_v<version>`, with `.exe` on Windows, which runs nothing else. */
export const executableName = (version: string, platform: Platform) => `terraform-provider-${PROVIDER_TYPE}_v${version}${isWindows(platform) ? '.exe' : ''}`;

/**
 * The Linux and macOS starter of provider.js. It finds node itself, in absolute PATH entries only: an
 * empty or relative entry means the working folder (Terraform's stack folder), where a planted node
 * must not run with the API token in its environment.
 */
const UNIX_WRAPPER = `#!/bin/sh
# terraform-provider-hosting: runs provider.js (beside this file) with the first node in an absolute
# PATH entry; empty and relative entries, which mean the working folder, are skipped.
# The folder from $0 itself (Terraform starts a plugin by its path): no command from PATH is needed.
here=\${0%/*}
set -f
IFS=:
for dir in $PATH; do
  case $dir in
    /*) if [ -f "$dir/node" ] && [ -x "$dir/node" ]; then exec "$dir/node" "$here/provider.js" "$@"; fi ;;
  esac
done
echo 'terraform-provider-hosting: node is not in any absolute folder on PATH (empty and relative entries are skipped).' >&2
echo 'This provider package runs provider.js with Node (20 or newer): put Node on PATH, or use the standalone provider, which needs no Node.' >&2
exit 1
`;

/**
 * The script package: the bundle, run by the user's node through a `#!/bin/sh` wrapper on Linux and
 * macOS, and on Windows through a launcher executable (windows-launcher/launcher.c), since Windows
 * starts no script as a plugin. Platforms that share their files share one array (one zip's bytes).
 */
export function scriptPackage(bundle: Buffer, version = providerVersion(bundle)): ProviderPackage {
  const provider: ZipEntry = { name: 'provider.js', data: bundle, mode: 0o644 };
  // One name for every Linux and macOS platform: only Windows adds `.exe`.
  const wrapper: ZipEntry = { name: executableName(version, 'linux_amd64'), data: Buffer.from(UNIX_WRAPPER), mode: 0o755 };
  // The bundle's third-party notices travel with every copy of it.
  const notices: ZipEntry = { name: THIRD_PARTY_NOTICES, data: bundleNotices(), mode: 0o644 };
  const unix = [wrapper, provider, notices];
  return {
    version,
    files: new Map(PLATFORMS.map((platform) => [platform, isWindows(platform) ? [windowsLauncher(platform, version), provider, notices] : unix])),
  };
}

function windowsLauncher(platform: Platform, version: string): ZipEntry {
  const data = readShippedFile(join(WINDOWS_LAUNCHER_DIR, `${platform}.exe`), `The ${platform} launcher`, 'npx projen windows-launcher');
  return { name: executableName(version, platform), data, mode: 0o755 };
}

/** The standalone package: per platform, the provider as one executable that needs no Node. */
export function standalonePackage(version: string, executables: ReadonlyMap<Platform, Buffer>, notices?: Buffer): ProviderPackage {
  const beside = notices ? [{ name: THIRD_PARTY_NOTICES, data: notices, mode: 0o644 }] : [];
  return {
    version,
    files: new Map([...executables].map(([platform, data]) => {
      const executable = { name: executableName(version, platform), data, mode: 0o755 };
      return [platform, [executable, ...beside]];
    })),
  };
}

/** The file beside each released executable naming the third-party software inside it, with the licences. */
export const THIRD_PARTY_NOTICES = 'THIRD_PARTY_NOTICES.txt';
/** The bundles' notices, written at compile by scripts/third-party-notices.js: `<package>/assets/THIRD_PARTY_NOTICES.txt`. */
const BUNDLE_NOTICES_PATH = join(__dirname, '..', '..', 'assets', THIRD_PARTY_NOTICES);

/** The bundles' notices, as compile wrote them. */
const bundleNotices = (): Buffer => readShippedFile(BUNDLE_NOTICES_PATH, 'The third-party notices', 'npx projen compile');

/**
 * What a standalone executable holds, with the licences: the bundles' packages, then Node, whose
 * LICENSE carries the licences of what Node itself includes.
 */
export function standaloneNotices(nodeRelease: string, nodeLicence: string): Buffer {
  const bundles = bundleNotices().toString('utf8').trimEnd();
  const node = [
    '='.repeat(78),
    `Node.js ${nodeRelease}`,
    'The runtime inside each standalone provider executable (MIT). Its LICENSE, which carries the',
    'licences of the software Node.js itself includes:',
    'Source: https://github.com/nodejs/node',
    '',
    nodeLicence.trim(),
  ];
  return Buffer.from(`${bundles}\n\n${node.join('\n')}\n`);
}

/**
 * The standalone package of `version` from an unpacked mirror that `provider mirror --standalone`
 * wrote: every platform found there. A mirror of another version, or of the script package, is
 * refused with the command that writes the right one.
 */
export function readStandaloneMirror(root: string, version: string, source = PROVIDER_SOURCE): ProviderPackage {
  const executables = new Map<Platform, Buffer>();
  for (const platform of standaloneMirrorPlatforms(root, version, source)) {
    const dir = join(root, ...source.split('/'), version, platform);
    if (existsSync(join(dir, 'provider.js'))) throw new Error(`${dir} holds the script provider, which needs Node; write the standalone one with "provider mirror --standalone ${root}"`);
    executables.set(platform, readFileSync(join(dir, executableName(version, platform))));
  }
  if (executables.size === 0) throw new Error(`${root} holds no standalone provider ${version} (${source}); ${STANDALONE_MIRROR_HINT}`);
  return standalonePackage(version, executables);
}

export const STANDALONE_MIRROR_HINT = 'write it with "npx cdktf-server-hosting provider mirror --standalone <directory>" from this same package version';

/** The platforms an unpacked mirror at `root` has a package of `version` for: a check that reads no executable. */
export function standaloneMirrorPlatforms(root: string, version: string, source = PROVIDER_SOURCE): Platform[] {
  return PLATFORMS.filter((platform) => existsSync(join(root, ...source.split('/'), version, platform)));
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
export function writePackedProviderMirror(root: string, pkg: ProviderPackage, source = PROVIDER_SOURCE): string[] {
  const dir = join(root, ...source.split('/'));
  mkdirSync(dir, { recursive: true });
  // Platforms that share their files share one archive's bytes, deflated once.
  const zips = new Map<readonly ZipEntry[], { zip: Buffer; hash: string }>();
  const archives: Record<string, { url: string; hashes: string[] }> = {};
  for (const [platform, files] of pkg.files) {
    if (!zips.has(files)) {
      const zip = zipArchive(files);
      zips.set(files, { zip, hash: `zh:${createHash('sha256').update(zip).digest('hex')}` });
    }
    const { zip, hash } = zips.get(files)!;
    const file = `terraform-provider-${PROVIDER_TYPE}_${pkg.version}_${platform}.zip`;
    writeFileSync(join(dir, file), zip);
    archives[platform] = { url: file, hashes: [hash] };
  }
  writeFileSync(join(dir, 'index.json'), `${JSON.stringify({ versions: { ...versionsIn(join(dir, 'index.json')), [pkg.version]: {} } }, null, 2)}\n`);
  writeFileSync(join(dir, `${pkg.version}.json`), `${JSON.stringify({ archives }, null, 2)}\n`);
  return Object.values(archives).map((a) => join(dir, a.url));
}

/**
 * A package's `h1:` hash (Go's dirhash Hash1: the SHA-256 of the sorted lines "<sha256 of the
 * file>  <name>"), what a lock file records for a mirror install.
 */
export function packageHash1(files: readonly ZipEntry[]): string {
  const summary = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((f) => `${createHash('sha256').update(f.data).digest('hex')}  ${f.name}\n`)
    .join('');
  return `h1:${createHash('sha256').update(summary).digest('base64')}`;
}

/**
 * A lock file (`.terraform.lock.hcl`) with this provider's entry, the hash of every platform the
 * package has: without them, `terraform init` records the hash of the current platform only and
 * warns "Incomplete lock file information". Entries of other providers in `existing` are kept as they are.
 */
export function lockFileWithProvider(existing: string | undefined, pkg: ProviderPackage): string {
  const hashes = [...new Set([...pkg.files.values()].map(packageHash1))].sort();
  // `constraints` as `terraform init` records the stack's exact pin: cdktf-cli reads it to decide
  // that the lock file is current, and without it runs `terraform providers lock`, which cannot
  // reach the provider's (unserved) hostname.
  const entry = `provider "${PROVIDER_SOURCE}" {\n  version     = "${pkg.version}"\n  constraints = "${pkg.version}"\n  hashes = [\n${hashes.map((h) => `    "${h}",\n`).join('')}  ]\n}\n`;
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
