import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/*
 * The provider's server certificate for go-plugin's mutual TLS: a fresh self-signed EC P-256
 * certificate for `localhost` per process. Terraform trusts exactly the certificate printed in the
 * handshake line. node:crypto makes keys and signatures but no certificates, so this writes the
 * DER of an X.509 v3 certificate itself.
 */

const tlv = (tag: number, content: Buffer): Buffer => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const seq = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const octets = (content: Buffer) => tlv(0x04, content);
const bits = (content: Buffer, unused = 0) => tlv(0x03, Buffer.concat([Buffer.from([unused]), content]));
const bool = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 + bytes.length, ...bytes]);
}

/** A non-negative INTEGER: a leading zero keeps a high first bit from reading as negative. */
function integer(value: Buffer): Buffer {
  return tlv(0x02, value[0] >= 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const body = [40 * a + b];
  for (const n of rest) {
    const chunk = [n % 128];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 + (v % 128));
    body.push(...chunk);
  }
  return tlv(0x06, Buffer.from(body));
}

/** UTCTime, YYMMDDHHMMSSZ: good until 2049, far beyond a provider process. */
function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return tlv(0x17, Buffer.from(`${text}Z`, 'ascii'));
}

const ECDSA_WITH_SHA256 = seq(oid('1.2.840.10045.4.3.2'));

export interface ServerCertificate {
  /** DER, for the handshake line. */
  readonly der: Buffer;
  readonly certPem: string;
  readonly keyPem: string;
}

/** A self-signed certificate for `localhost`, valid from a minute ago for a day. */
export function createServerCertificate(now = new Date()): ServerCertificate {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(set(seq(oid('2.5.4.3'), utf8('localhost'))));
  // Positive and minimal in DER: a first byte of 1 to 127 needs no leading zero and allows none.
  // (A first byte of 0 would make a non-minimal INTEGER that OpenSSL rejects.)
  const serial = randomBytes(16);
  serial[0] = (serial[0] % 0x7f) + 1;
  const extensions = seq(
    seq(oid('2.5.29.17'), octets(seq(tlv(0x82, Buffer.from('localhost', 'ascii'))))),
    seq(oid('2.5.29.19'), bool(true), octets(seq(bool(true)))),
    // digitalSignature and keyCertSign; the last two bits of the byte are unused.
    seq(oid('2.5.29.15'), bool(true), octets(bits(Buffer.from([0x84]), 2))),
    seq(oid('2.5.29.37'), octets(seq(oid('1.3.6.1.5.5.7.3.1'), oid('1.3.6.1.5.5.7.3.2')))),
  );
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_WITH_SHA256,
    name,
    seq(utcTime(new Date(now.getTime() - 60_000)), utcTime(new Date(now.getTime() + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, extensions),
  );
  const der = seq(tbs, ECDSA_WITH_SHA256, bits(sign('sha256', tbs, privateKey)));
  return { der, certPem: certificatePem(der), keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}

/** A certificate's DER as PEM: what node:tls takes, e.g. for the one in a handshake line. */
export const certificatePem = (der: Buffer): string => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
