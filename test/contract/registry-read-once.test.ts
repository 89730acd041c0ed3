import * as fs from 'node:fs';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as OpenPgp from 'openpgp' with { 'resolution-mode': 'import' };
import { releaseSigner, signedRelease } from '../../src/cli/release-signing';
import { standalonePackage } from '../../src/contract/provider-mirror';
import { mergedRelease, writeProviderRegistry } from '../../src/contract/provider-registry';
import { providerRelease, releaseZipName, sha256Hex } from '../../src/contract/provider-release';

/*
 * Check then use (issue 48 §5): `provider registry` once read SHA256SUMS for the archives' hashes
 * and again for the signature check, so a loop swapping the file could feed a foreign archive to
 * the first read and the signed file to the second. Here the file system answers the first read of
 * SHA256SUMS with the attacker's version and every later read with the signed one.
 */
jest.mock('node:fs', () => {
  const actual = jest.requireActual<typeof fs>('node:fs');
  return { ...actual, readFileSync: jest.fn(actual.readFileSync) };
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
const openpgp = require('openpgp') as typeof OpenPgp;
const address = { host: 'registry.example.com', namespace: 'platform' };
const only = (platform: 'linux_amd64' | 'darwin_arm64') => providerRelease(standalonePackage('1.4.2', new Map([[platform, Buffer.from(`${platform} exe`)]])));

test('SHA256SUMS is read once: a file swapped between two reads cannot pass the signature check and feed the archives', async () => {
  const root = mkdtempSync(join(tmpdir(), 'registry-read-once-'));
  try {
    const { privateKey } = await openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name: 'releases' }], format: 'armored' });
    const signer = await releaseSigner(privateKey, undefined, 'releases.asc');
    writeProviderRegistry(root, await signedRelease(only('linux_amd64'), signer), address, signer);
    const dir = join(root, 'releases', 'platform', 'hosting', '1.4.2');
    const sumsFile = join(dir, 'terraform-provider-hosting_1.4.2_SHA256SUMS');
    const signed = fs.readFileSync(sumsFile);
    const fake = releaseZipName('1.4.2', 'linux_arm64');
    writeFileSync(join(dir, fake), 'attacker');
    appendFileSync(sumsFile, `${sha256Hex(Buffer.from('attacker'))}  ${fake}\n`);
    const foreign = fs.readFileSync(sumsFile);
    writeFileSync(sumsFile, signed);

    const actual = jest.requireActual<typeof fs>('node:fs');
    let readsOfSums = 0;
    (fs.readFileSync as jest.Mock).mockImplementation((file: fs.PathOrFileDescriptor, options?: never) => {
      if (file !== sumsFile) return actual.readFileSync(file, options);
      readsOfSums += 1;
      const bytes = readsOfSums === 1 ? foreign : signed;
      return options ? bytes.toString(options) : bytes;
    });
    const outcome = await mergedRelease(root, only('darwin_arm64'), address, signer).then((r) => r.archives.map((a) => a.platform), (err: Error) => err.message);
    expect(readsOfSums).toBe(1);
    expect(outcome).toMatch(/does not carry a good signature by key ID/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
