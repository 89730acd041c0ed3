import { X509Certificate } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { providerVersion } from '../../src/contract/provider-mirror';
import { ddosRulesDataSource } from '../../src/provider/data-sources/ddos-rules';
import { serverDataSource } from '../../src/provider/data-sources/server';
import { serversDataSource } from '../../src/provider/data-sources/servers';
import { atPlan, type Diagnostic } from '../../src/provider/diagnostics';
import { createServerCertificate } from '../../src/provider/plugin/certificate';
import { decodeValue, encodeValue, UNKNOWN } from '../../src/provider/plugin/values';
import { APPLY_REBOOTS, CREATE_DOES_NOT_REBOOT, takeover, warningOfEffect } from '../../src/provider/resources/effects';
import { ipSettingsResource } from '../../src/provider/resources/ip-settings';
import { powerStateResource } from '../../src/provider/resources/power-state';
import { decodePrivate, encodePrivate, withRestoreValues } from '../../src/provider/resources/private-state';
import { plannedRebootGeneration, rebootIntent } from '../../src/provider/resources/reboot-generation';
import { checkServerExists, saidAtPlan, type ObjectValue, type ProviderResource } from '../../src/provider/resources/resource';
import { serverFirewallResource } from '../../src/provider/resources/server-firewall';
import { accountNamed, stoppableSleep, type ProviderSession } from '../../src/provider/session';
import { diffIpSettings } from '../../src/reconcile/ip-settings';
import type { ReconcileError } from '../../src/reconcile/reconcile-error';
import { SEED_SERVER_IDS as IDS } from '../../src/simulator';
import { HOSTILE_TEXT } from '../helpers/hostile-account';
import { configuredSessions } from '../helpers/sessions';
import { useSimulator } from '../helpers/simulator';
import { power as modelPower } from '../helpers/two-accounts';

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

  test('a malformed server id is one error, in the words of the attribute', () => {
    expect(serverFirewallResource.validate(config({ server_id: 'web-1', enabled: true })).map((d) => d.summary)).toEqual(['invalid server_id: must be a server id such as vps_ab_1 or ded_<uuid>']);
    // The letter l for the digit 1: the id it most likely meant, without a read (validation has none).
    expect(serverFirewallResource.validate(config({ server_id: 'vps_web_l', enabled: true })).map((d) => d.summary))
      .toEqual(['invalid server_id: must be a server id such as vps_ab_1 or ded_<uuid>; did you mean "vps_web_1"?']);
  });

  test('values not known yet are left for later', () => {
    expect(serverFirewallResource.validate(config({ server_id: UNKNOWN, enabled: true }))).toEqual([]);
    expect(serverFirewallResource.validate(config({ rulesets: [1, UNKNOWN] }))).toEqual([]);
  });
});

test('an invalid protection value names the member and the values allowed, in the provider\'s words', () => {
  const config = { id: null, server_id: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', ip: '203.0.113.10', rdns: null, description: null, protection: { layer4: 'always', layer7: 'off' }, on_destroy: null };
  const diagnostics = ipSettingsResource.validate(config);
  expect(diagnostics.map((d) => [d.attribute?.steps[0].attribute_name, d.summary])).toEqual([['protection', 'invalid protection.layer4: "always" is not one of "dynamic", "permanent"']]);
});

test('a mistyped choice is answered with the one it likely meant, and a bad timeout with what it must be, in Terraform\'s words', () => {
  const unset = Object.fromEntries(powerStateResource.schema.block.attributes.map((a) => [a.name, null]));
  const power = { ...unset, server_id: 'vps_web_1', state: 'runing', stop_method: 'shutdwn', ready_timeout_seconds: -5, operation_timeout_seconds: 1e12 };
  expect(powerStateResource.validate(power).map((d) => [d.attribute?.steps[0].attribute_name, d.summary])).toEqual([
    ['state', 'invalid state: "runing" is not one of "running", "stopped"; did you mean "running"?'],
    ['stop_method', 'invalid stop_method: "shutdwn" is not one of "shutdown", "power_off"; did you mean "shutdown"?'],
    ['ready_timeout_seconds', 'invalid ready_timeout_seconds: is -5; it must be a number of seconds greater than 0'],
    ['operation_timeout_seconds', 'invalid operation_timeout_seconds: is 1000000000000; it must be at most 86,400 seconds (a day)'],
  ]);
  const firewall = { ...Object.fromEntries(serverFirewallResource.schema.block.attributes.map((a) => [a.name, null])), server_id: 'vps_web_1', enabled: true, on_destroy: 'restor' };
  expect(serverFirewallResource.validate(firewall).map((d) => d.summary)).toEqual(['on_destroy must be "retain" or "restore", not "restor": did you mean "restore"?']);
});

test('the provider version changes with the bundle, so a lock file never meets a changed package', () => {
  expect(providerVersion(Buffer.from('a'), '1.4.2')).toBe('1.4.2');
  expect(providerVersion(Buffer.from('a'), '0.0.0')).toMatch(/^0\.0\.\d+$/);
  expect(providerVersion(Buffer.from('a'), '0.0.0')).not.toBe(providerVersion(Buffer.from('b'), '0.0.0'));
});

describe('reboot generations: what tells one reboot from every earlier one, through any crash', () => {
  const power = (over: object) => ({ id: 'vps_web_1', server_id: 'vps_web_1', state: 'running', reboot_triggers: { v: '1' }, operation_timeout_seconds: null, reboot_generation: 3, ...over });

  test.each<[string, object | null, object, unknown]>([
    ['a create never reboots: 0', null, power({ reboot_generation: UNKNOWN }), 0],
    ['a trigger change: one more, known at plan', power({}), power({ reboot_triggers: { v: '2' } }), 4],
    ['a change of anything else (a timeout): the same', power({}), power({ operation_timeout_seconds: 60 }), 3],
    ['triggers set for the first time: no reboot, the same', power({ reboot_triggers: null }), power({}), 3],
    ['triggers removed: no reboot, the same', power({}), power({ reboot_triggers: null }), 3],
    ['a trigger not known yet: known after apply', power({}), power({ reboot_triggers: { v: UNKNOWN } }), UNKNOWN],
    ['a state from before generations: counts from 0', power({ reboot_generation: null }), power({ reboot_triggers: { v: '2' } }), 1],
    ['a state from before generations, no trigger change: none, so the plan shows nothing', power({ reboot_generation: null }), power({ operation_timeout_seconds: 60 }), null],
  ])('%s', (_name, prior, planned, expected) => {
    expect(plannedRebootGeneration(prior as never, planned as never)).toBe(expected);
  });

  test('a reboot\'s intent is its generation and triggers, nothing else', () => {
    expect(rebootIntent(4, { v: '2' })).toBe(rebootIntent(4, { v: '2' }));
    expect(rebootIntent(4, { v: '2' })).not.toBe(rebootIntent(5, { v: '2' }));
    expect(rebootIntent(4, { v: '2' })).not.toBe(rebootIntent(4, { v: '3' }));
  });
});

test('a removal of IP settings that restore names at plan the fields that stay: those empty before, which the API cannot clear', async () => {
  const unset = { id: null, protection: null, expect_takeover: null, changed_since_plan: null };
  const prior = { ...unset, server_id: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', ip: '203.0.113.11', rdns: 'half.example.com', description: 'half', on_destroy: 'restore' };
  const where = 'the settings of 203.0.113.11 on ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b';
  // It asks the account nothing.
  const noSession = {} as ProviderSession;
  expect(await ipSettingsResource.leftInPlace(noSession, prior, { restore: { rdns: 'metal.example.com', description: null } })).toBe(`${where} that were empty before it, which the API cannot clear (description "half")`);
  expect(await ipSettingsResource.leftInPlace(noSession, prior, { restore: { rdns: 'metal.example.com' } })).toBeUndefined();
  // A field empty now too leaves nothing behind.
  expect(await ipSettingsResource.leftInPlace(noSession, { ...prior, description: null }, { restore: { description: null } })).toBeUndefined();
  expect(await ipSettingsResource.leftInPlace(noSession, { ...prior, on_destroy: 'retain' }, { restore: { rdns: null } })).toBe(`${where} (rdns "half.example.com", description "half")`);
  expect(await ipSettingsResource.leftInPlace(noSession, prior, {})).toBe(`${where} (rdns "half.example.com", description "half")`);
});

describe('private state: the values to restore, in bytes that do not change with time', () => {
  test('the same private data is the same bytes, whatever order its members were set in: a refresh of an account that did not move changes no state', () => {
    const restored = withRestoreValues({ editable: { rdns: true } }, { rdns: 'a.example.com' });
    const reordered = { restore: { rdns: 'a.example.com' }, editable: { rdns: true } };
    expect(encodePrivate(restored).equals(encodePrivate(reordered))).toBe(true);
    expect(encodePrivate(decodePrivate(encodePrivate(restored))).equals(encodePrivate(restored))).toBe(true);
  });

  test('restore keeps the first observed value', () => {
    const first = withRestoreValues({}, { rdns: 'a.example.com' });
    const second = withRestoreValues(first, { rdns: 'b.example.com', description: null });
    expect(second.restore).toEqual({ rdns: 'a.example.com', description: null });
    expect(withRestoreValues(second, {})).toBe(second);
  });

  test('round trip through the bytes Terraform stores; malformed bytes are an error that says what to do; an older provider\'s key members are dropped', () => {
    const state = { ...withRestoreValues({ editable: { rdns: true } }, { enabled: false, protection: { layer4: 'dynamic', layer7: 'off' } }), incomplete: true };
    expect(decodePrivate(encodePrivate(state))).toEqual(state);
    expect(decodePrivate(undefined)).toEqual({});
    expect(decodePrivate(Buffer.from('{"instance":"i-1","generation":3,"readAt":7,"readIn":"p","notedAtPlan":true,"incomplete":true}'))).toEqual({ incomplete: true });
    expect(() => decodePrivate(Buffer.from('not json'))).toThrow(/private data of this resource is not JSON; remove the resource from the state and import it again/);
    expect(() => decodePrivate(Buffer.from('[1]'))).toThrow(/malformed at \(root\)/);
    expect(() => decodePrivate(Buffer.from('{"incomplete":"3"}'))).toThrow(/malformed at incomplete/);
  });
});

describe('hosting_ip_settings and hosting_power_state validation: the constructs\' rules, naming the attribute', () => {
  const ip = (over: object) => ({ id: null, server_id: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', ip: '203.0.113.10', rdns: null, description: null, protection: null, on_destroy: null, ...over });
  const power = (over: object) => ({ id: null, server_id: 'vps_web_1', state: 'running', stop_method: null, force_stop_fallback: null, reboot_triggers: null, hard_reboot: null, ready_timeout_seconds: null, operation_timeout_seconds: null, ...over });
  const attributes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => d.attribute?.steps[0].attribute_name);
  test.each<[string, object, Array<string | undefined>]>([
    ['a VPS', { server_id: 'vps_web_1', rdns: 'a.example.com' }, ['server_id']],
    ['a bad address', { ip: '203.0.113.300', rdns: 'a.example.com' }, ['ip']],
    ['a bad rdns', { rdns: 'web_1 .example' }, ['rdns']],
    ['an rdns with a newline', { rdns: 'a.example.com\nb' }, ['rdns']],
    ['a bad protection', { protection: { layer4: 'always', layer7: 'off' } }, ['protection']],
    ['a bad on_destroy', { rdns: 'a.example.com', on_destroy: 'revert' }, ['on_destroy']],
    ['nothing managed', {}, [undefined]],
  ])('ip settings: %s is refused', (_name, over, expected) => {
    expect(attributes(ipSettingsResource.validate(ip(over)))).toEqual(expected);
  });

  test.each<[string, object, Array<string | undefined>]>([
    ['a bad state', { state: 'paused' }, ['state']],
    ['a bad stop method', { stop_method: 'unplug' }, ['stop_method']],
    ['a zero timeout', { ready_timeout_seconds: 0 }, ['ready_timeout_seconds']],
    ['hard_reboot without triggers', { hard_reboot: true }, ['hard_reboot']],
  ])('power state: %s is refused', (_name, over, expected) => {
    expect(attributes(powerStateResource.validate(power(over)))).toEqual(expected);
  });

  test('what the API itself returns passes: a long description, an rdns that is no DNS host name (the API judges)', () => {
    expect(ipSettingsResource.validate(ip({ description: 'x'.repeat(300), rdns: 'mail_relay.example.com' }))).toEqual([]);
  });

  test('values not known yet are left for later, and valid ones pass', () => {
    expect(ipSettingsResource.validate(ip({ server_id: UNKNOWN, rdns: UNKNOWN }))).toEqual([]);
    expect(ipSettingsResource.validate(ip({ protection: { layer4: UNKNOWN, layer7: 'off' } }))).toEqual([]);
    expect(powerStateResource.validate(power({ state: UNKNOWN, stop_method: 'power_off', reboot_triggers: { a: 'b' }, hard_reboot: true }))).toEqual([]);
  });
});

test.each<[ProviderResource, string, boolean]>([
  [serverFirewallResource, 'vps_web_1', true],
  [serverFirewallResource, 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', false],
  [ipSettingsResource, 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b/203.0.113.10', true],
  [ipSettingsResource, 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', false],
  [ipSettingsResource, 'vps_web_1/203.0.113.10', false],
  [powerStateResource, 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', true],
  [powerStateResource, 'web-1', false],
])('import ids: %#', (resource, id, accepted) => {
  if (!accepted) {
    expect(() => resource.importState(id)).toThrow(`cannot import as ${resource.typeName}: "`);
    return;
  }
  const state = resource.importState(id);
  // Every attribute of the schema, null where the refresh fills it in.
  expect(Object.keys(state).sort()).toEqual(resource.schema.block.attributes.map((a) => a.name).sort());
  expect(state.id).toBe(id);
});

test('a stoppable sleep ends at once, rejecting, when Terraform asks the provider to stop', async () => {
  const stopping = new AbortController();
  const sleep = stoppableSleep(stopping.signal);
  const started = performance.now();
  const waiting = sleep(60_000);
  stopping.abort();
  await expect(waiting).rejects.toThrow('stopped: Terraform asked the provider to stop (Ctrl-C, or a stop signal to terraform)');
  await expect(sleep(1)).rejects.toThrow('stopped');
  expect(performance.now() - started).toBeLessThan(1_000);
  await expect(stoppableSleep(new AbortController().signal)(1)).resolves.toBeUndefined();
});

test('a power state whose server the account no longer lists leaves the state; a listed one reads its actual power', async () => {
  type Listed = Record<string, { id: string; power: string }>;
  const session = (servers: Listed) =>
    ({ listedServer: async (id: string) => servers[id], listedAt: async () => undefined }) as unknown as ProviderSession;
  const state = powerStateResource.importState('vps_web_1');
  expect((await powerStateResource.read(session({}), state, {})).state).toBeNull();
  const read = await powerStateResource.read(session({ vps_web_1: { id: 'vps_web_1', power: 'stopped' } }), { ...state, state: 'running' }, { incomplete: true });
  expect(read).toEqual({ state: { ...state, state: 'stopped' }, private: { incomplete: true } });
});

describe('data sources: arguments checked at validate time, naming the attribute', () => {
  const attributes = (diagnostics: Diagnostic[]) => diagnostics.map((d) => d.attribute?.steps[0].attribute_name);
  test('hosting_server needs exactly one of id and name, and a well-formed id', () => {
    expect(serverDataSource.validate({ id: null, name: null })[0].summary).toBe('hosting_server needs exactly one of id and name (neither is set)');
    expect(serverDataSource.validate({ id: 'vps_web_1', name: 'web-1' })[0].summary).toBe('hosting_server needs exactly one of id and name (both are set)');
    expect(attributes(serverDataSource.validate({ id: 'web-1', name: null }))).toEqual(['id']);
    expect(serverDataSource.validate({ id: null, name: 'web-1' })).toEqual([]);
    expect(serverDataSource.validate({ id: UNKNOWN, name: null })).toEqual([]);
  });

  test('server ids and addresses of the other data sources', () => {
    expect(attributes(ddosRulesDataSource.validate({ server_id: 'nope', ip: '203.0.113.300' }))).toEqual(['server_id', 'ip']);
    expect(ddosRulesDataSource.validate({ server_id: UNKNOWN, ip: UNKNOWN })).toEqual([]);
  });

  test('a name that several servers share is an error naming them', async () => {
    const server = (id: string, name: string) => ({ id, name }) as never;
    const session = { serverList: async () => ({ data: [server('vps_a_1', 'web'), server('vps_b_2', 'web'), server('vps_c_3', 'db')], observedAt: null, stale: false }) } as unknown as ProviderSession;
    await expect(serverDataSource.read(session, { id: null, name: 'web' })).rejects.toThrow('hosting_server: 2 servers are named "web": vps_a_1 ("web"), vps_b_2 ("web")');
  });

  test('a name no server has offers at most five candidates, the closest first, not the whole account', async () => {
    const servers = Array.from({ length: 300 }, (_, i) => ({ id: `vps_s_${i}`, name: `node-${i}` })) as never[];
    const session = { serverList: async () => ({ data: [...servers, { id: 'vps_w_1', name: 'Web-1' }], observedAt: null, stale: false }) } as unknown as ProviderSession;
    const err = await serverDataSource.read(session, { id: null, name: 'web-1' }).catch((e: ReconcileError) => e.describe().join('\n'));
    expect(err).toContain('of its 301 servers, the closest is "Web-1" (the hosting_servers data source lists them all)');
    expect(err).not.toContain('"node-');
  });

  test('hosting_servers filters take only the values the API reports', () => {
    expect(attributes(serversDataSource.validate({ type: 'VPS', status: 'running', name: null }))).toEqual(['type', 'status']);
    expect(serversDataSource.validate({ type: 'vps', status: 'active', name: 'whatever' })).toEqual([]);
    expect(serversDataSource.validate({ type: UNKNOWN, status: null, name: null })).toEqual([]);
  });
});

test('a server id the account does not have: the closest ids come with their names as quoted text, hostile ones included', async () => {
  const servers = [{ id: 'vps_web_1', name: HOSTILE_TEXT }, { id: 'vps_db_1', name: 'db' }];
  const session = {
    listedServer: async () => undefined,
    serverList: async () => ({ data: servers, observedAt: null, stale: false }),
    accountName: () => accountNamed({ name: 'ci', scopes: [], accountId: 4711 }, 'https://api.example.com/api/v1'),
  } as unknown as ProviderSession;
  const [diagnostic] = await checkServerExists(session, null, { server_id: 'vps_web_9' });
  expect(diagnostic.summary).toBe('server "vps_web_9" does not exist on account 4711 (token "ci") at https://api.example.com/api/v1');
  expect(accountNamed(undefined, 'https://api.example.com/api/v1')).toBe('the account of this token at https://api.example.com/api/v1');
  expect(diagnostic.detail).toContain(`of its 2 servers, the closest are vps_web_1 (${JSON.stringify(HOSTILE_TEXT)}), vps_db_1 ("db"); use an id`);
  expect(diagnostic.detail).not.toContain('\n\tline 2');
});

test.each([
  ['firewall vps_web_1: rule set 99 does not exist on this account; nothing was changed', 'firewall vps_web_1: rule set 99 does not exist on this account'],
  ['use an id that GET /servers lists for this token; nothing was changed', 'use an id that GET /servers lists for this token'],
  ['remove rdns from the configuration; nothing was changed. Then plan again', 'remove rdns from the configuration. Then plan again'],
  ['a description that says "nothing was changed here" stays', 'a description that says "nothing was changed here" stays'],
])('at plan, a refusal does not say "nothing was changed": %s', (text, planned) => {
  expect(atPlan({ severity: 1, summary: text, detail: text })).toEqual({ severity: 1, summary: planned, detail: planned });
});

test('what a create takes over is said on one line, text from the API quoted as it is: quotes, newlines, ${...} and %{...} included', () => {
  const actual = { address: '203.0.113.10', rdns: null, description: HOSTILE_TEXT, protection: null, editable: { rdns: true, description: true, protection: true } };
  const changes = diffIpSettings({ description: 'web' }, actual as never).map((c) => `${c.field} ${c.from} -> ${c.to}`);
  const [warning] = takeover('ip settings', 'the settings of 203.0.113.10 on ded_x', changes).map(warningOfEffect);
  expect(warning.severity).toBe(2);
  expect(warning.detail).toContain(`The apply changes the settings of 203.0.113.10 on ded_x: description ${JSON.stringify(HOSTILE_TEXT)} -> "web". `);
  expect(warning.detail).not.toContain('\n');
  expect(takeover('firewall', 'the firewall of vps_x', [])).toEqual([]);
});

test('hosting_ip_settings: a description past one 10 KB request is refused at plan on the attribute; a long one the takeover quotes short', () => {
  const config = { id: null, server_id: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', ip: '203.0.113.10', rdns: null, description: 'x'.repeat(11_000), protection: null, on_destroy: null };
  expect(ipSettingsResource.validate(config).map((d) => [d.attribute?.steps[0].attribute_name, d.summary])).toEqual([
    ['description', 'invalid description: takes 11,018 bytes as a request, more than the API\'s 10 KB request body holds'],
  ]);
  expect(ipSettingsResource.validate({ ...config, description: 'x'.repeat(1_001) })).toEqual([]);
  expect(diffIpSettings({ description: 'y'.repeat(1_001) }, { address: '203.0.113.10', rdns: null, description: 'old', protection: null, editable: { rdns: true, description: true, protection: true } })[0].to)
    .toBe(`"${'y'.repeat(80)}"… (1,001 characters)`);
});

// Issue 60 §2: a -replace meant as a reboot reboots nothing, and the plan says so.
describe('creating a power state with reboot_triggers says it does not reboot', () => {
  const s = useSimulator();
  // The model's power state (the same server), its takeover reviewed.
  const power = (over: ObjectValue = {}): ObjectValue => modelPower({ expect_takeover: true, life_id: null, ...over }).config;
  const warningsOf = async (prior: ObjectValue | null, config: ObjectValue) => {
    const sessions = await configuredSessions(s.client(), { now: s.clock.now });
    const change = await powerStateResource.plan(sessions.forCall('plan'), prior, config, {});
    return saidAtPlan(change).map((d) => d.summary);
  };
  test('a create with triggers: once, with how to reboot now; without triggers, or an update: nothing', async () => {
    expect(await warningsOf(null, power({ reboot_triggers: { image: 'v1' } }))).toEqual([CREATE_DOES_NOT_REBOOT]);
    expect(await warningsOf(null, power())).toEqual([]);
    const applied = { ...power({ reboot_triggers: { image: 'v1' } }), id: IDS.vpsRunning, reboot_generation: 0, life_id: 'life-1' };
    // An update of the triggers: the plan says the reboot it makes instead.
    expect(await warningsOf(applied, power({ reboot_triggers: { image: 'v2' } }))).toEqual([APPLY_REBOOTS]);
  });
  test('a state not known until apply: the plan reads nothing more and says nothing of an action', async () => {
    const applied = { ...power({ reboot_triggers: { image: 'v1' } }), id: IDS.vpsRunning, reboot_generation: 0, life_id: 'life-1' };
    const details = () => s.sim.requests.filter((r) => r.method === 'GET' && r.path === `/servers/${IDS.vpsRunning}`).length;
    const before = details();
    expect(await warningsOf(applied, power({ state: UNKNOWN, reboot_triggers: { image: 'v2' } }))).toEqual([]);
    expect(details()).toBe(before);
  });
});

// The removal that Terraform applies before the replacement of a create that failed halfway (the e2e runs it with terraform).
describe('the removal of an incomplete create of IP settings', () => {
  const s = useSimulator();
  test('restores nothing, says nothing, and hands the values to restore to its replacement\'s plan', async () => {
    const sessions = await configuredSessions(s.client(), { now: s.clock.now });
    const unset = { id: null, protection: null, changed_since_plan: null };
    const config = { ...unset, server_id: IDS.dedicated, ip: '203.0.113.11', rdns: 'half.example.com', description: 'half', on_destroy: 'restore', expect_takeover: true };
    const prior = { ...config, id: `${IDS.dedicated}/203.0.113.11` };
    const priv = { replacesIncomplete: true, restore: { rdns: null, description: null } };
    const removal = sessions.forCall('apply');
    const writes = () => s.sim.executed({ kind: 'ip_settings' }).length;
    const before = writes();
    expect(await ipSettingsResource.leftInPlace(removal, prior, priv)).toBeUndefined();
    await ipSettingsResource.destroy(removal, prior, priv);
    expect({ writes: writes(), warnings: removal.warnings }).toEqual({ writes: before, warnings: [] });
    const replacement = await ipSettingsResource.plan(sessions.forCall('apply'), null, config, {});
    expect(replacement.private).toMatchObject({ replacesIncomplete: true, restore: priv.restore });
  });
});

// The shared reads (shared-reads.ts): one GET /servers for every caller; a power write makes the shown list old.
describe('the server list a process shares', () => {
  const s = useSimulator();
  test('concurrent callers share one read; after forgetServerList a data source reads again, and a resource\'s check does not', async () => {
    const session = (await configuredSessions(s.client(), { now: s.clock.now })).forCall('plan');
    const lists = () => s.sim.requests.filter((r) => r.method === 'GET' && r.path === '/servers').length;
    await Promise.all([session.listedServer(IDS.vpsRunning), session.listedServer(IDS.vdsRunning), session.serverList()]);
    expect(lists()).toBe(1);
    session.forgetServerList();
    expect((await session.listedServer(IDS.vpsRunning))?.id).toBe(IDS.vpsRunning);
    expect(lists()).toBe(1);
    expect((await session.serverList()).data.length).toBeGreaterThan(0);
    expect(lists()).toBe(2);
  });
});

test('a rule set that is none is refused in the reader\'s words, its value quoted, on the attribute that holds it', () => {
  const firewall = { id: null, server_id: 'vps_web_1', enabled: null, rulesets: [-1], ruleset_names: [''], applied_rulesets: null, on_destroy: null, expect_takeover: null, changed_since_plan: null };
  expect(serverFirewallResource.validate(firewall).map((d) => [d.attribute?.steps[0].attribute_name, d.summary])).toEqual([
    ['rulesets', 'invalid rulesets: -1 is no rule set: use an id (a whole number, 0 or more) or a name'],
    ['ruleset_names', 'invalid ruleset_names: "" is no rule set: use an id (a whole number, 0 or more) or a name'],
  ]);
});

const UNSET_FIREWALL = {
  id: null, rulesets: null, ruleset_names: null, applied_rulesets: null, on_destroy: null, expect_takeover: null, changed_since_plan: null,
};

describe('a replacement plans from its own server, not from the old one', () => {
  const s = useSimulator();
  test('a firewall with rulesets unset moved to another server: its rule sets are known after apply, and the takeover names none', async () => {
    const session = (await configuredSessions(s.client(), { now: s.clock.now })).forCall('plan');
    const unset = { rulesets: null, ruleset_names: null, on_destroy: null, expect_takeover: null, changed_since_plan: null };
    s.sim.drift(IDS.vpsRunning, { firewall: { enabled: false, rulesets: [] } });
    const prior = { ...unset, id: IDS.vpsStopped, server_id: IDS.vpsStopped, enabled: true, rulesets: [2], applied_rulesets: [2] };
    const moved = { ...unset, id: null, server_id: IDS.vpsRunning, enabled: true, applied_rulesets: null };
    const change = await serverFirewallResource.plan(session, prior, moved, {});
    expect(change.requiresReplace).toEqual(['server_id']);
    expect([change.planned.rulesets, change.planned.applied_rulesets, change.planned.id]).toEqual([UNKNOWN, UNKNOWN, UNKNOWN]);
    const taken = saidAtPlan(change).filter((d) => d.summary.startsWith('Creating this resource'));
    expect(taken.map((d) => d.detail)).toEqual([expect.stringContaining(`The apply changes the firewall of ${IDS.vpsRunning}: enabled false -> true. `)]);
  });

  test('a firewall create whose takeover read fails fails its plan: a plan silent on the takeover would say what is not true', async () => {
    const session = (await configuredSessions(s.client(), { now: s.clock.now })).forCall('plan');
    s.sim.drift(IDS.vpsRunning, { firewall: { enabled: false, rulesets: [] } });
    s.sim.addFault({ endpoint: 'GET /servers/{serverId}/firewall', effect: { type: 'error', status: 503, code: 'unavailable' } });
    const create = { ...UNSET_FIREWALL, server_id: IDS.vpsRunning, enabled: true };
    await expect(serverFirewallResource.plan(session, null, create, {})).rejects.toThrow(/unavailable/);
    s.sim.clearFaults();
  });
});
