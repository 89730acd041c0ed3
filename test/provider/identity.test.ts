import { decodeValue, UNKNOWN } from '../../src/provider/plugin/values';
import { identityData, identityFrom, identitySchema, importIdOf } from '../../src/provider/resources/identity';
import { ipSettingsResource } from '../../src/provider/resources/ip-settings';
import { serverFirewallResource } from '../../src/provider/resources/server-firewall';

const DED = 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b';

test('an identity is the state\'s identity attributes; one Terraform does not know yet stays unknown', () => {
  const data = identityData(ipSettingsResource, { id: `${DED}/203.0.113.10`, server_id: DED, ip: '203.0.113.10', rdns: 'x.example.com' });
  expect(decodeValue(data!.identity_data.msgpack)).toEqual({ server_id: DED, ip: '203.0.113.10' });
  expect(decodeValue(identityData(serverFirewallResource, { server_id: UNKNOWN })!.identity_data.msgpack)).toEqual({ server_id: UNKNOWN });
  expect(identityData(serverFirewallResource, null)).toBeUndefined();
});

test('an identity Terraform sends (msgpack, or JSON as UpgradeResourceIdentity has it) keeps only the schema\'s attributes, and names the import id', () => {
  const stored = { identity_data: { json: Buffer.from(JSON.stringify({ server_id: DED, ip: '203.0.113.10', extra: 'dropped' })) } };
  const identity = identityFrom(ipSettingsResource, stored)!;
  expect(identity).toEqual({ server_id: DED, ip: '203.0.113.10' });
  expect(importIdOf(ipSettingsResource, identity)).toBe(`${DED}/203.0.113.10`);
  expect(identityFrom(serverFirewallResource, undefined)).toBeUndefined();
});

test('the identity schema: version 0, every attribute a string required for import, described', () => {
  expect(identitySchema(ipSettingsResource)).toEqual({
    version: 0,
    identity_attributes: [
      { name: 'server_id', type: Buffer.from('"string"'), required_for_import: true, description: 'The dedicated server id (`ded_…`).' },
      { name: 'ip', type: Buffer.from('"string"'), required_for_import: true, description: 'The IPv4 address.' },
    ],
  });
});
