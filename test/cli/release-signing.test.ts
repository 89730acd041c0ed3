import type * as OpenPgp from 'openpgp' with { 'resolution-mode': 'import' };
import { releaseSigner } from '../../src/cli/release-signing';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const openpgp = require('openpgp') as typeof OpenPgp;

const generate = (passphrase?: string) => openpgp.generateKey({ type: 'ecc', curve: 'ed25519Legacy', userIDs: [{ name: 'releases' }], passphrase, format: 'armored' });

test('a detached binary signature that OpenPGP verifies with the public key, and the key ID Terraform prints', async () => {
  const { privateKey } = await generate('pw');
  const signer = await releaseSigner(privateKey, 'pw', 'HOSTING_RELEASE_SIGNING_KEY');
  const data = Buffer.from('0123  terraform-provider-hosting_1.4.2_linux_amd64.zip\n');
  const signature = await signer.sign(data);
  const verified = await openpgp.verify({
    message: await openpgp.createMessage({ binary: data }),
    signature: await openpgp.readSignature({ binarySignature: signature }),
    verificationKeys: await openpgp.readKey({ armoredKey: signer.publicKeyArmored }),
  });
  await expect(verified.signatures[0].verified).resolves.toBe(true);
  expect(signer.keyId).toMatch(/^[0-9A-F]{16}$/);
  expect(signer.fingerprint).toMatch(/^[0-9A-F]{40}$/);
  expect(signer.fingerprint.endsWith(signer.keyId)).toBe(true);
  expect(signer.publicKeyArmored).toContain('BEGIN PGP PUBLIC KEY BLOCK');
  expect(signer.publicKeyArmored).not.toContain('PRIVATE');
});

test('verify: the key\'s own signature of the bytes, binary or armoured; not another key\'s, other bytes or garbage', async () => {
  const signer = await releaseSigner((await generate()).privateKey, undefined, 'release.asc');
  const other = await releaseSigner((await generate()).privateKey, undefined, 'other.asc');
  const data = Buffer.from('0123  terraform-provider-hosting_1.4.2_linux_amd64.zip\n');
  const signature = await signer.sign(data);
  await expect(signer.verify(data, signature)).resolves.toBe(true);
  const armored = await openpgp.armor(openpgp.enums.armor.signature, signature);
  await expect(signer.verify(data, Buffer.from(armored))).resolves.toBe(true);
  await expect(signer.verify(Buffer.concat([data, Buffer.from('x')]), signature)).resolves.toBe(false);
  await expect(signer.verify(data, await other.sign(data))).resolves.toBe(false);
  await expect(signer.verify(data, Buffer.from('sig 1'))).resolves.toBe(false);
});

test('errors name where the key came from and what to do, and never repeat the key or passphrase', async () => {
  const { privateKey } = await generate('secret-passphrase');
  await expect(releaseSigner('not a key', undefined, '/keys/release.asc')).rejects.toThrow('/keys/release.asc does not hold an ASCII-armoured OpenPGP private key');
  await expect(releaseSigner(privateKey, undefined, 'HOSTING_RELEASE_SIGNING_KEY')).rejects.toThrow('the key in HOSTING_RELEASE_SIGNING_KEY is protected by a passphrase: set HOSTING_RELEASE_SIGNING_PASSPHRASE');
  const wrong = await releaseSigner(privateKey, 'wrong', 'HOSTING_RELEASE_SIGNING_KEY').catch((err: Error) => err.message);
  expect(wrong).toBe('HOSTING_RELEASE_SIGNING_PASSPHRASE does not unlock the key in HOSTING_RELEASE_SIGNING_KEY');
  const unprotected = await generate();
  await expect(releaseSigner(unprotected.privateKey, undefined, 'f')).resolves.toMatchObject({ keyId: expect.any(String) });
});
