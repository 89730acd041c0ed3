import { createHash } from 'node:crypto';
import { PROVIDER_TYPE } from './provider-address';
import type { Platform, ProviderPackage } from './provider-mirror';
import { zipArchive } from './zip-archive';

/*
 * A provider release in the files the Terraform Registry ingests (GoReleaser's layout): one zip per
 * platform, `_manifest.json` (the plugin protocol), `_SHA256SUMS` of them all, and its detached
 * signature `_SHA256SUMS.sig`. The same files back a registry folder (`provider registry`).
 */

/** The provider protocol every release speaks: Terraform installs it only where it speaks the same. */
export const PROTOCOL_VERSIONS = ['6.0'] as const;

const PREFIX = `terraform-provider-${PROVIDER_TYPE}`;
export const releaseZipName = (version: string, platform: Platform) => `${PREFIX}_${version}_${platform}.zip`;
export const shasumsName = (version: string) => `${PREFIX}_${version}_SHA256SUMS`;
export const signatureName = (version: string) => `${shasumsName(version)}.sig`;
export const manifestName = (version: string) => `${PREFIX}_${version}_manifest.json`;

/** One platform's archive, with the SHA-256 the registry's download document and SHA256SUMS carry. */
export interface ReleaseArchive {
  readonly platform: Platform;
  readonly name: string;
  readonly sha256: string;
}

/** The release's files by name, in a fixed order, and what a registry needs to know of each archive. */
export interface ProviderRelease {
  readonly version: string;
  readonly files: ReadonlyMap<string, Buffer>;
  readonly archives: readonly ReleaseArchive[];
}

export const sha256Hex = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The release files of `pkg` (zips, manifest and SHA256SUMS; the signature is added by whoever
 * holds the key), with `extras` (the SBOM) listed in SHA256SUMS too. Byte for byte the same for the
 * same package: zips carry no timestamps.
 */
export function providerRelease(pkg: ProviderPackage, extras: ReadonlyMap<string, Buffer> = new Map()): ProviderRelease {
  const zips = new Map([...pkg.files].map(([platform, entries]) => [platform, zipArchive(entries)]));
  return releaseOfArchives(pkg.version, zips, extras);
}

const NO_FILES: ReadonlyMap<string, Buffer> = new Map();

/** The release files of archives already zipped, one per platform (in the order given), and `extras`. */
export function releaseOfArchives(version: string, zips: ReadonlyMap<Platform, Buffer>, extras = NO_FILES): ProviderRelease {
  const files = new Map<string, Buffer>(extras);
  const archives: ReleaseArchive[] = [];
  for (const [platform, zip] of zips) {
    const name = releaseZipName(version, platform);
    files.set(name, zip);
    archives.push({ platform, name, sha256: sha256Hex(zip) });
  }
  files.set(manifestName(version), Buffer.from(`${JSON.stringify({ version: 1, metadata: { protocol_versions: PROTOCOL_VERSIONS } }, null, 2)}\n`));
  files.set(shasumsName(version), shasums(files));
  return { version, files, archives };
}

/** `sha256sum`'s format, sorted by name: what `sha256sum -c` and the registry both read. */
export function shasums(files: ReadonlyMap<string, Buffer>): Buffer {
  const lines = [...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, data]) => `${sha256Hex(data)}  ${name}\n`);
  return Buffer.from(lines.join(''));
}

/** The release with its SHA256SUMS signature added. */
export function withSignature(release: ProviderRelease, signature: Buffer): ProviderRelease {
  return { ...release, files: new Map([...release.files, [signatureName(release.version), signature]]) };
}
