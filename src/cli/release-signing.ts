import type * as OpenPgp from 'openpgp' with { 'resolution-mode': 'import' };
import { shasumsName, withSignature, type ProviderRelease } from '../contract/provider-release';

// The package's types describe its ES module; the CommonJS build it also ships has the same API.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const openpgp = require('openpgp') as typeof OpenPgp;

/*
 * Signs provider releases as Terraform verifies them: a detached, binary OpenPGP signature of the
 * SHA256SUMS file, checked against the public key the registry's download document carries. OpenPGP.js
 * (Proton's, as is the go-crypto library Terraform checks with) runs in plain JavaScript, so the
 * command signs where no gpg is installed and inside the standalone executable.
 */

/** The variable a release reads its ASCII-armoured private key from (a CI secret). */
export const SIGNING_KEY_VARIABLE = 'HOSTING_RELEASE_SIGNING_KEY';
/** The variable the key's passphrase comes from, if it has one. */
export const SIGNING_PASSPHRASE_VARIABLE = 'HOSTING_RELEASE_SIGNING_PASSPHRASE';

export interface ReleaseSigner {
  /** The key's long id, as Terraform prints it after "key ID" (16 upper-case hex digits). */
  readonly keyId: string;
  /** The key's fingerprint (40 upper-case hex digits), what users are told to compare the key ID with. */
  readonly fingerprint: string;
  /** The public key, ASCII-armoured: what users and the registry verify with. */
  readonly publicKeyArmored: string;
  /** A detached binary signature of `data`. */
  sign(data: Buffer): Promise<Buffer>;
  /** Whether `signature` is a good detached signature of `data` by this key. */
  verify(data: Buffer, signature: Buffer): Promise<boolean>;
}

/**
 * The signer of an ASCII-armoured private key. `source` names where the key came from (a variable or a
 * file) in every error, and no error repeats the key or the passphrase.
 */
export async function releaseSigner(armoredKey: string, passphrase: string | undefined, source: string): Promise<ReleaseSigner> {
  const key = await readKey(armoredKey, source);
  const unlocked = key.isDecrypted() ? key : await unlock(key, passphrase, source);
  if (!(await unlocked.getSigningKey().catch(() => undefined))) {
    throw new Error(`the key in ${source} cannot make signatures (no signing key or subkey that is valid now); use a key made for signing`);
  }
  return {
    keyId: unlocked.getKeyID().toHex().toUpperCase(),
    fingerprint: unlocked.getFingerprint().toUpperCase(),
    publicKeyArmored: unlocked.toPublic().armor(),
    sign: async (data) => {
      const message = await openpgp.createMessage({ binary: data });
      return Buffer.from(await openpgp.sign({ message, signingKeys: unlocked, detached: true, format: 'binary' }));
    },
    verify: (data, signature) => verifiedBy(unlocked.toPublic(), data, signature),
  };
}

/** The release with its SHA256SUMS signed: what Terraform checks before it installs an archive. */
export async function signedRelease(release: ProviderRelease, signer: ReleaseSigner): Promise<ProviderRelease> {
  return withSignature(release, await signer.sign(release.files.get(shasumsName(release.version))!));
}

/** Whether `signature` (binary or ASCII-armoured, as gpg writes either) is a good signature of `data` by `key`. */
async function verifiedBy(key: OpenPgp.PublicKey, data: Buffer, signature: Buffer): Promise<boolean> {
  try {
    const armored = signature.subarray(0, 64).toString('latin1').startsWith('-----BEGIN PGP SIGNATURE-----');
    const read = armored ? await openpgp.readSignature({ armoredSignature: signature.toString('utf8') }) : await openpgp.readSignature({ binarySignature: signature });
    await openpgp.verify({ message: await openpgp.createMessage({ binary: data }), signature: read, verificationKeys: key, expectSigned: true, format: 'binary' });
    return true;
  } catch {
    return false;
  }
}

async function readKey(armoredKey: string, source: string): Promise<OpenPgp.PrivateKey> {
  try {
    return await openpgp.readPrivateKey({ armoredKey });
  } catch {
    throw new Error(`${source} does not hold an ASCII-armoured OpenPGP private key ("-----BEGIN PGP PRIVATE KEY BLOCK-----"); export one with "gpg --armor --export-secret-keys KEYID"`);
  }
}

async function unlock(key: OpenPgp.PrivateKey, passphrase: string | undefined, source: string): Promise<OpenPgp.PrivateKey> {
  if (!passphrase) throw new Error(`the key in ${source} is protected by a passphrase: set ${SIGNING_PASSPHRASE_VARIABLE}`);
  try {
    return await openpgp.decryptKey({ privateKey: key, passphrase });
  } catch {
    throw new Error(`${SIGNING_PASSPHRASE_VARIABLE} does not unlock the key in ${source}`);
  }
}
