import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as OpenPgp from 'openpgp' with { 'resolution-mode': 'import' };
import { releaseSigner, signedRelease, type ReleaseSigner } from '../../src/cli/release-signing';
import { standalonePackage } from '../../src/contract/provider-mirror';
import { downloadDocuments, mergedRelease, versionsDocument, writeProviderRegistry } from '../../src/contract/provider-registry';
import { providerRelease, releaseZipName, sha256Hex, shasums, withSignature, type ProviderRelease } from '../../src/contract/provider-release';

const executables = new Map([['linux_amd64', Buffer.from('linux exe')], ['darwin_arm64', Buffer.from('mac exe')]] as const);
const release = (version = '1.4.2') => providerRelease(standalonePackage(version, executables), new Map([[`terraform-provider-hosting_${version}_sbom.cdx.json`, Buffer.from('{}')]]));
const address = { host: 'registry.example.com', namespace: 'platform' };
const key = { keyId: '0123456789ABCDEF', publicKeyArmored: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n…' };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const openpgp = require('openpgp') as typeof OpenPgp;
const newSigner = async (name: string) => {
  const { privateKey } = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name }], format: 'armored' });
  return releaseSigner(privateKey, undefined, `${name}.asc`);
};

test('the release files are the registry\'s: a zip per platform, the manifest, and SHA256SUMS listing them all', () => {
  const files = release().files;
  expect([...files.keys()].sort()).toEqual([
    'terraform-provider-hosting_1.4.2_SHA256SUMS',
    'terraform-provider-hosting_1.4.2_darwin_arm64.zip',
    'terraform-provider-hosting_1.4.2_linux_amd64.zip',
    'terraform-provider-hosting_1.4.2_manifest.json',
    'terraform-provider-hosting_1.4.2_sbom.cdx.json',
  ]);
  expect(JSON.parse(files.get('terraform-provider-hosting_1.4.2_manifest.json')!.toString())).toEqual({ version: 1, metadata: { protocol_versions: ['6.0'] } });
  const sums = files.get('terraform-provider-hosting_1.4.2_SHA256SUMS')!.toString();
  expect(sums.split('\n').filter(Boolean).map((line) => line.split('  ')[1])).toEqual([
    'terraform-provider-hosting_1.4.2_darwin_arm64.zip',
    'terraform-provider-hosting_1.4.2_linux_amd64.zip',
    'terraform-provider-hosting_1.4.2_manifest.json',
    'terraform-provider-hosting_1.4.2_sbom.cdx.json',
  ]);
  expect(sums).toContain(`${sha256Hex(files.get('terraform-provider-hosting_1.4.2_linux_amd64.zip')!)}  terraform-provider-hosting_1.4.2_linux_amd64.zip\n`);
});

test('the same package gives the same bytes: SHA256SUMS is reproducible', () => {
  expect(release().files.get('terraform-provider-hosting_1.4.2_SHA256SUMS')).toEqual(release().files.get('terraform-provider-hosting_1.4.2_SHA256SUMS'));
  expect(shasums(new Map([['b', Buffer.from('2')], ['a', Buffer.from('1')]])).toString()).toBe(`${sha256Hex(Buffer.from('1'))}  a\n${sha256Hex(Buffer.from('2'))}  b\n`);
});

test('a download document per platform: absolute URLs at the host, the archive\'s shasum, and the signing key', () => {
  const documents = downloadDocuments(release(), address, key);
  expect([...documents.keys()]).toEqual(['linux/amd64', 'darwin/arm64']);
  expect(documents.get('linux/amd64')).toEqual({
    protocols: ['6.0'],
    os: 'linux',
    arch: 'amd64',
    filename: 'terraform-provider-hosting_1.4.2_linux_amd64.zip',
    download_url: 'https://registry.example.com/releases/platform/hosting/1.4.2/terraform-provider-hosting_1.4.2_linux_amd64.zip',
    shasums_url: 'https://registry.example.com/releases/platform/hosting/1.4.2/terraform-provider-hosting_1.4.2_SHA256SUMS',
    shasums_signature_url: 'https://registry.example.com/releases/platform/hosting/1.4.2/terraform-provider-hosting_1.4.2_SHA256SUMS.sig',
    shasum: release().archives[0].sha256,
    signing_keys: { gpg_public_keys: [{ key_id: key.keyId, ascii_armor: key.publicKeyArmored, trust_signature: '', source: '', source_url: null }] },
  });
});

test('the versions list keeps every other version, replaces the same one, and sorts by version number', () => {
  const existing = [{ version: '1.10.0', protocols: ['6.0'], platforms: [] }, { version: '1.4.2', protocols: ['5.0'], platforms: [] }, { version: '1.9.1', protocols: ['6.0'], platforms: [] }];
  const { versions } = versionsDocument(existing, release());
  expect(versions.map((v) => v.version)).toEqual(['1.4.2', '1.9.1', '1.10.0']);
  expect(versions[0]).toEqual({ version: '1.4.2', protocols: ['6.0'], platforms: [{ os: 'linux', arch: 'amd64' }, { os: 'darwin', arch: 'arm64' }] });
});

describe('writing a registry folder', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'registry-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  test('an unsigned release is refused: terraform installs nothing unsigned from a registry', () => {
    expect(() => writeProviderRegistry(root, release(), address, key)).toThrow('the release 1.4.2 is not signed; a registry serves signed releases only');
  });

  test('the discovery document keeps the other services a host already lists', () => {
    mkdirSync(join(root, '.well-known'));
    writeFileSync(join(root, '.well-known', 'terraform.json'), '{"modules.v1": "/v1/modules/"}');
    writeProviderRegistry(root, withSignature(release(), Buffer.from('sig')), address, key);
    expect(JSON.parse(readFileSync(join(root, '.well-known', 'terraform.json'), 'utf8'))).toEqual({ 'modules.v1': '/v1/modules/', 'providers.v1': '/v1/providers/' });
  });

  test('a versions file that is not JSON stops the update and says which file', () => {
    mkdirSync(join(root, 'v1', 'providers', 'platform', 'hosting'), { recursive: true });
    writeFileSync(join(root, 'v1', 'providers', 'platform', 'hosting', 'versions'), '<html>');
    expect(() => writeProviderRegistry(root, withSignature(release(), Buffer.from('sig')), address, key)).toThrow(`${join(root, 'v1', 'providers', 'platform', 'hosting', 'versions')} is not JSON`);
  });

  describe('a version already in the folder for other platforms', () => {
    const only = (platform: 'linux_amd64' | 'darwin_arm64') => providerRelease(standalonePackage('1.4.2', new Map([[platform, executables.get(platform)!]])));
    const dir = () => join(root, 'releases', 'platform', 'hosting', '1.4.2');
    const read = (...segments: string[]) => readFileSync(join(root, ...segments), 'utf8');

    let signer: ReleaseSigner;
    beforeAll(async () => {
      signer = await newSigner('releases');
    });
    const publish = async (written: ProviderRelease) => writeProviderRegistry(root, await signedRelease(written, signer), address, signer);

    test('keeps them: SHA256SUMS, the signature, every download document and the versions list cover both platforms', async () => {
      await publish(only('linux_amd64'));
      const merged = await mergedRelease(root, only('darwin_arm64'), address, signer);
      expect(merged.archives.map((a) => a.platform)).toEqual(['linux_amd64', 'darwin_arm64']);
      writeProviderRegistry(root, withSignature(merged, Buffer.from('sig 2')), address, key);

      const sums = read('releases', 'platform', 'hosting', '1.4.2', 'terraform-provider-hosting_1.4.2_SHA256SUMS');
      expect(sums.split('\n').filter(Boolean).map((line) => line.split('  ')[1])).toEqual([
        'terraform-provider-hosting_1.4.2_darwin_arm64.zip', 'terraform-provider-hosting_1.4.2_linux_amd64.zip', 'terraform-provider-hosting_1.4.2_manifest.json',
      ]);
      expect(read('releases', 'platform', 'hosting', '1.4.2', 'terraform-provider-hosting_1.4.2_SHA256SUMS.sig')).toBe('sig 2');
      for (const [os, arch] of [['linux', 'amd64'], ['darwin', 'arm64']]) {
        const download = JSON.parse(read('v1', 'providers', 'platform', 'hosting', '1.4.2', 'download', os, arch));
        expect(sums).toContain(`${download.shasum}  ${download.filename}\n`);
      }
      expect(JSON.parse(read('v1', 'providers', 'platform', 'hosting', 'versions')).versions).toEqual([
        { version: '1.4.2', protocols: ['6.0'], platforms: [{ os: 'linux', arch: 'amd64' }, { os: 'darwin', arch: 'arm64' }] },
      ]);
    });

    test('writing the same platform again replaces it and keeps the other', async () => {
      await publish(release());
      const merged = await mergedRelease(root, only('darwin_arm64'), address, signer);
      expect(merged.archives.map((a) => a.platform)).toEqual(['linux_amd64', 'darwin_arm64']);
      expect([...merged.files.keys()]).not.toContain('terraform-provider-hosting_1.4.2_SHA256SUMS.sig');
    });

    test('an archive that is not the one its SHA256SUMS lists is never signed again: the update is refused', async () => {
      await publish(only('linux_amd64'));
      writeFileSync(join(dir(), 'terraform-provider-hosting_1.4.2_linux_amd64.zip'), 'tampered');
      await expect(mergedRelease(root, only('darwin_arm64'), address, signer)).rejects.toThrow(
        `${join(dir(), 'terraform-provider-hosting_1.4.2_linux_amd64.zip')} is not the archive its SHA256SUMS lists, so version 1.4.2 cannot be extended with darwin_arm64: remove ${dir()} and write every platform again`);
    });

    test('a new version leaves the older one as it was', async () => {
      await publish(only('linux_amd64'));
      const next = providerRelease(standalonePackage('1.5.0', new Map([['darwin_arm64', Buffer.from('mac exe')]])));
      await expect(mergedRelease(root, next, address, signer)).resolves.toBe(next);
    });

    // Issue 41, point 1: whoever can write to the served folder adds an archive and its line to
    // SHA256SUMS; the maintainer's next run must not sign it.
    test('an archive added to SHA256SUMS behind the key\'s back is never signed: the folder\'s signature is checked first', async () => {
      await publish(only('linux_amd64'));
      const fake = releaseZipName('1.4.2', 'linux_arm64');
      writeFileSync(join(dir(), fake), 'attacker');
      appendFileSync(join(dir(), 'terraform-provider-hosting_1.4.2_SHA256SUMS'), `${sha256Hex(Buffer.from('attacker'))}  ${fake}\n`);
      const sums = join(dir(), 'terraform-provider-hosting_1.4.2_SHA256SUMS');
      await expect(mergedRelease(root, only('darwin_arm64'), address, signer)).rejects.toThrow(
        `${sums} does not carry a good signature by key ID ${signer.keyId} in ${sums}.sig, so the archives it lists are not signed again: `
        + `someone or something changed the folder since this key signed it. Inspect ${dir()}; to start version 1.4.2 afresh, remove that folder and write every platform again with this key`);
    });

    test('a folder signed by another key, or not signed, is refused too; the key that signed it extends it', async () => {
      await publish(only('linux_amd64'));
      await expect(mergedRelease(root, only('darwin_arm64'), address, await newSigner('someone else'))).rejects.toThrow(/does not carry a good signature by key ID [0-9A-F]{16}/);
      rmSync(join(dir(), 'terraform-provider-hosting_1.4.2_SHA256SUMS.sig'));
      await expect(mergedRelease(root, only('darwin_arm64'), address, signer)).rejects.toThrow(`has no signature (${join(dir(), 'terraform-provider-hosting_1.4.2_SHA256SUMS.sig')} is missing)`);
    });
  });
});
