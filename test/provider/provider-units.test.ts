import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { providerVersion } from '../../src/contract/provider-mirror';
import { createServerCertificate } from '../../src/provider/certificate';
import { serverFirewallResource } from '../../src/provider/resources/server-firewall';
import { decodeValue, encodeValue, UNKNOWN } from '../../src/provider/values';

describe('the server certificate for go-plugin mutual TLS', () => {
  test('a self-signed P-256 certificate for localhost that node parses and verifies', () => {
    const cert = createServerCertificate(new Date('2026-11-22T10:00:00Z'));
    const x509 = new X509Certificate(cert.der);
    expect(x509.subject).toBe('CN=localhost');
    expect(x509.issuer).toBe('CN=localhost');
    expect(x509.subjectAltName).toBe('DNS:localhost');
    expect(x509.ca).toBe(true);
    expect(x509.publicKey.asymmetricKeyDetails).toMatchObject({ namedCurve: 'prime256v1' });
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.validFrom).toBe('Nov 22 09:59:00 2026 GMT');
    expect(new X509Certificate(cert.certPem).fingerprint256).toBe(x509.fingerprint256);
  });

  test('every process gets its own key, and OpenSSL accepts every certificate (serial numbers are minimal DER)', () => {
    expect(createServerCertificate().der.equals(createServerCertificate().der)).toBe(false);
    // A non-minimal serial came up about once in 128 starts; 1,000 make missing it unlikely (< 0.1%).
    for (let i = 0; i < 1_000; i++) {
      const { certPem, keyPem } = createServerCertificate();
      expect(() => createSecureContext({ cert: certPem, key: keyPem })).not.toThrow();
    }
  });
});

describe('values on the wire (msgpack, unknown as extension 0)', () => {
  test('round trip, with an unknown encoded as d4 00 00', () => {
    const value = { id: UNKNOWN, server_id: 'vps_a_1', enabled: true, rulesets: [1, 2], ruleset_names: null };
    expect(decodeValue(encodeValue(value))).toEqual(value);
    expect(encodeValue(UNKNOWN).toString('hex')).toBe('d40000');
    expect(decodeValue(undefined)).toBeNull();
  });

  test('an unknown with refinements (extension 12) is unknown', () => {
    expect(decodeValue(Buffer.from('d40c00', 'hex'))).toBe(UNKNOWN);
  });
});

describe('hosting_server_firewall validation: the constructs\' rules, naming the attribute', () => {
  const config = (over: object) => ({ id: null, server_id: 'vps_web_1', enabled: null, rulesets: null, ruleset_names: null, ...over });
  test.each<[string, object, string | undefined]>([
    ['a dedicated server', { server_id: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', enabled: true }, 'server_id'],
    ['a malformed id', { server_id: 'web-1', enabled: true }, 'server_id'],
    ['a negative rule set id', { rulesets: [-1] }, 'rulesets'],
    ['an empty rule set name', { ruleset_names: [''] }, 'ruleset_names'],
    ['nothing managed', {}, undefined],
  ])('%s is refused', (_name, over, attribute) => {
    const diagnostics = serverFirewallResource.validate(config(over));
    expect(diagnostics.length).toBeGreaterThan(0);
    expect(diagnostics.map((d) => d.attribute?.steps[0].attribute_name)).toEqual(diagnostics.map(() => attribute));
  });

  test('values not known yet are left for later', () => {
    expect(serverFirewallResource.validate(config({ server_id: UNKNOWN, enabled: true }))).toEqual([]);
    expect(serverFirewallResource.validate(config({ rulesets: [1, UNKNOWN] }))).toEqual([]);
  });
});

test('the provider version changes with the bundle, so a lock file never meets a changed package', () => {
  expect(providerVersion(Buffer.from('a'))).toMatch(/^1\.0\.\d+$/);
  expect(providerVersion(Buffer.from('a'))).not.toBe(providerVersion(Buffer.from('b')));
});
