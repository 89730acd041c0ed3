import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROVIDER_TYPE } from './provider-address';
import { PLATFORMS, type Platform } from './provider-mirror';
import { manifestName, PROTOCOL_VERSIONS, releaseOfArchives, releaseZipName, sha256Hex, shasumsName, signatureName, type ProviderRelease } from './provider-release';

/*
 * Terraform's provider registry protocol as static files, so any HTTPS host that serves a folder is
 * a registry: the discovery document, the versions list, and a download document per version and
 * platform pointing at the release files beside them. Versions already in the folder stay listed,
 * each with the key that signed it, so a key rotation leaves older versions installable.
 */

/** Where the registry is served and under which namespace: the source address is `HOST/NAMESPACE/hosting`. */
export interface RegistryAddress {
  readonly host: string;
  readonly namespace: string;
}

/** The public half of the key that signed the release. */
export interface RegistrySigningKey {
  readonly keyId: string;
  readonly publicKeyArmored: string;
}

/** The signing key as a checker: whether a detached signature of `data` is its own. */
export interface SignatureChecker {
  readonly keyId: string;
  verify(data: Buffer, signature: Buffer): Promise<boolean>;
}

const DISCOVERY = join('.well-known', 'terraform.json');
const providerPath = (a: RegistryAddress) => ['v1', 'providers', a.namespace, PROVIDER_TYPE];
const releasePath = (a: RegistryAddress, version: string) => ['releases', a.namespace, PROVIDER_TYPE, version];
const url = (a: RegistryAddress, ...segments: string[]) => `https://${a.host}/${segments.map(encodeURIComponent).join('/')}`;

interface VersionEntry {
  readonly version: string;
  readonly protocols: readonly string[];
  readonly platforms: ReadonlyArray<{ readonly os: string; readonly arch: string }>;
}

/** Each archive's download document: the URLs of the archive, SHA256SUMS and its signature, and the key. */
export function downloadDocuments(release: ProviderRelease, address: RegistryAddress, key: RegistrySigningKey): Map<string, object> {
  const files = releasePath(address, release.version);
  return new Map(release.archives.map((archive) => {
    const [os, arch] = archive.platform.split('_');
    return [`${os}/${arch}`, {
      protocols: PROTOCOL_VERSIONS,
      os,
      arch,
      filename: archive.name,
      download_url: url(address, ...files, archive.name),
      shasums_url: url(address, ...files, shasumsName(release.version)),
      shasums_signature_url: url(address, ...files, signatureName(release.version)),
      shasum: archive.sha256,
      signing_keys: { gpg_public_keys: [{ key_id: key.keyId, ascii_armor: key.publicKeyArmored, trust_signature: '', source: '', source_url: null }] },
    }];
  }));
}

/** The versions list with `release` in it: every other version stays, this one is replaced if present. */
export function versionsDocument(existing: readonly VersionEntry[], release: ProviderRelease): { versions: VersionEntry[] } {
  const entry: VersionEntry = {
    version: release.version,
    protocols: PROTOCOL_VERSIONS,
    platforms: release.archives.map((a) => ({ os: a.platform.split('_')[0], arch: a.platform.split('_')[1] })),
  };
  const versions = [...existing.filter((v) => v.version !== release.version), entry];
  return { versions: versions.sort((a, b) => compareVersions(a.version, b.version)) };
}

const compareVersions = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split(/[.-]/).map((part) => (/^\d+$/.test(part) ? Number(part) : part)));
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] ?? -1) < (y[i] ?? -1) ? -1 : 1;
  }
  return 0;
};

/**
 * The release to publish when `release`'s version may already be in the folder for other
 * platforms: their archives are kept beside the new ones, so the version's SHA256SUMS, signature
 * and versions entry cover every platform. Sign what this returns: it replaces the folder's
 * signature of that version, so nothing is kept unless the folder's SHA256SUMS carries `key`'s own
 * signature (whoever can write to the served folder could otherwise have the next run sign theirs).
 */
export async function mergedRelease(
  root: string, release: ProviderRelease, address: RegistryAddress, key: SignatureChecker,
): Promise<ProviderRelease> {
  const dir = join(root, ...releasePath(address, release.version));
  // Read once: the bytes whose signature is checked are the bytes whose hashes are used, so a file
  // swapped between two reads cannot pass one check and feed the other.
  const sums = readIfPresent(join(dir, shasumsName(release.version)));
  const kept = publishedArchives(dir, release, parseShasums(sums));
  if (kept.size === 0) return release;
  await checkPublishedSignature(dir, release.version, sums!, key);
  const added = new Map(release.archives.map((a) => [a.platform, release.files.get(a.name)!]));
  const zips = new Map(PLATFORMS.flatMap((p): Array<[Platform, Buffer]> => {
    const zip = added.get(p) ?? kept.get(p);
    return zip ? [[p, zip]] : [];
  }));
  const { version } = release;
  const generated = new Set([...release.archives.map((a) => a.name), manifestName(version), shasumsName(version), signatureName(version)]);
  return releaseOfArchives(version, zips, new Map([...release.files].filter(([name]) => !generated.has(name))));
}

/**
 * The archives of `release`'s version the folder already serves for other platforms, each read
 * once and checked against the SHA256SUMS that listed it: a changed or missing archive is never
 * signed again.
 */
function publishedArchives(dir: string, release: ProviderRelease, listed: ReadonlyMap<string, string>): Map<Platform, Buffer> {
  const kept = new Map<Platform, Buffer>();
  for (const platform of PLATFORMS.filter((p) => !release.archives.some((a) => a.platform === p))) {
    const name = releaseZipName(release.version, platform);
    if (!listed.has(name)) continue;
    const zip = readIfPresent(join(dir, name));
    if (!zip || sha256Hex(zip) !== listed.get(name)) {
      throw new Error(`${join(dir, name)} is ${zip ? 'not the archive its SHA256SUMS lists' : 'missing, though its SHA256SUMS lists it'}, so version ${release.version} `
        + `cannot be extended with ${release.archives.map((a) => a.platform).join(', ')}: remove ${dir} and write every platform again`);
    }
    kept.set(platform, zip);
  }
  return kept;
}

/** Refuses SHA256SUMS bytes that `key` did not sign: the archives they list are not ours to sign again. */
async function checkPublishedSignature(dir: string, version: string, sums: Buffer, key: SignatureChecker): Promise<void> {
  const file = join(dir, shasumsName(version));
  const signaturePath = join(dir, signatureName(version));
  const signature = readIfPresent(signaturePath);
  if (signature && await key.verify(sums, signature)) return;
  const problem = signature ? `does not carry a good signature by key ID ${key.keyId} in ${signaturePath}` : `has no signature (${signaturePath} is missing)`;
  throw new Error(`${file} ${problem}, so the archives it lists are not signed again: someone or something changed the folder since this key signed it. `
    + `Inspect ${dir}; to start version ${version} afresh, remove that folder and write every platform again with this key`);
}

/** A file's bytes, or undefined when there is none. */
function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The names and SHA-256 hashes SHA256SUMS bytes list; none when there are none. */
function parseShasums(bytes: Buffer | undefined): Map<string, string> {
  if (!bytes) return new Map();
  const lines = bytes.toString('utf8').split('\n').filter(Boolean);
  return new Map(lines.map((line) => {
    const [hash, name] = line.split(/\s+\*?/, 2);
    return [name, hash];
  }));
}

/**
 * Writes (or adds to) the registry under `root`: the release files, the download documents, the
 * versions list and the discovery document (other services it lists are kept). Refuses an unsigned
 * release: Terraform installs nothing from a registry without a signature. Returns the files written.
 */
export function writeProviderRegistry(root: string, release: ProviderRelease, address: RegistryAddress, key: RegistrySigningKey): string[] {
  if (!release.files.has(signatureName(release.version))) throw new Error(`the release ${release.version} is not signed; a registry serves signed releases only`);
  const written: string[] = [];
  const write = (segments: string[], data: Buffer | object) => {
    const file = join(root, ...segments);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, Buffer.isBuffer(data) ? data : `${JSON.stringify(data, null, 2)}\n`);
    written.push(file);
  };
  for (const [name, data] of release.files) write([...releasePath(address, release.version), name], data);
  for (const [platform, document] of downloadDocuments(release, address, key)) {
    write([...providerPath(address), release.version, 'download', ...platform.split('/')], document);
  }
  const versions = join(root, ...providerPath(address), 'versions');
  write([...providerPath(address), 'versions'], versionsDocument(readJson<{ versions?: VersionEntry[] }>(versions)?.versions ?? [], release));
  write([DISCOVERY], { ...readJson<object>(join(root, DISCOVERY)), 'providers.v1': '/v1/providers/' });
  return written;
}

function readJson<T>(file: string): T | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    throw new Error(`${file} is not JSON, so the registry folder cannot be updated; move it away or write the registry elsewhere`);
  }
}

/** What a user writes to install from the registry: `required_providers` with a `~>` constraint. */
export function registryInstructions(address: RegistryAddress, version: string): string {
  const [major, minor] = version.split('.');
  return [
    '# Serve the folder over HTTPS at the host above (JSON documents as application/json), then, in the configuration:',
    'terraform {',
    '  required_providers {',
    `    ${PROVIDER_TYPE} = {`,
    `      source  = "${address.host}/${address.namespace}/${PROVIDER_TYPE}"`,
    `      version = "~> ${major}.${minor}"`,
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}
