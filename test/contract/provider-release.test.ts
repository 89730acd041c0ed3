import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { standalonePackage } from '../../src/contract/provider-mirror';
import { downloadDocuments, versionsDocument, writeProviderRegistry } from '../../src/contract/provider-registry';
import { providerRelease, sha256Hex, shasums, withSignature } from '../../src/contract/provider-release';

const executables = new Map([['linux_amd64', Buffer.from('linux exe')], ['darwin_arm64', Buffer.from('mac exe')]] as const);
const release = (version = '1.4.2') => providerRelease(standalonePackage(version, executables), new Map([[`terraform-provider-hosting_${version}_sbom.cdx.json`, Buffer.from('{}')]]));
const address = { host: 'registry.example.com', namespace: 'platform' };
const key = { keyId: '0123456789ABCDEF', publicKeyArmored: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n…' };

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
});
