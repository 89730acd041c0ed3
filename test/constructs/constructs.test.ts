import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Fn, TerraformIterator, TerraformOutput, TerraformStack, TerraformVariable, Testing, DataResource, Token } from 'cdktf';
import { Bridge, ChangedSincePlan, DataHostingServer, DataHostingServerFirewall, DataHostingServers, HostingApi, IpSettings, Layer4Protection, Layer7Protection, OnDestroy, PowerState, PowerStateValue, ServerFirewall, StopMethod, type HostingApiProps } from '../../src';
import { PROVIDER_SOURCE } from '../../src/contract/provider-address';
import { providerVersion, readProviderBundle, standalonePackage, writeProviderMirror } from '../../src/contract/provider-mirror';
import { useTestingApps } from '../helpers/testing-apps';

const VPS = 'vps_web_1';
const DED = 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b';

const testingApp = useTestingApps();
function stack() {
  return new TerraformStack(testingApp(), 'test');
}
const synth = (s: TerraformStack) => JSON.parse(Testing.synth(s));
const bridgeApi = (s: TerraformStack, props: HostingApiProps = {}) => new HostingApi(s, 'hosting', { bridge: Bridge.TERRAFORM_DATA, ...props });
const resourceOf = (json: any, type: string) => Object.values(json.resource[type])[0] as any;

describe('the provider (Bridge.PROVIDER, the default)', () => {
  test('one hosting_* resource per construct, one attribute per prop, and the provider configured once', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting', { baseUrl: 'https://api.example.com/api/v1', tokenEnvVar: 'MY_TOKEN' });
    new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true, rulesets: [2, 1], rulesetNames: ['web'] });
    new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.10', rdns: 'web.example.com', protection: { layer4: Layer4Protection.PERMANENT, layer7: Layer7Protection.ONLY }, onDestroy: OnDestroy.RESTORE });
    const power = new PowerState(s, 'power', { api, serverId: DED, state: PowerStateValue.RUNNING, rebootTriggers: { image: 'v1' }, hardReboot: true });
    const json = synth(s);
    expect(Object.keys(json.resource).sort()).toEqual(['hosting_ip_settings', 'hosting_power_state', 'hosting_server_firewall']);
    expect(json.provider.hosting).toEqual([{ base_url: 'https://api.example.com/api/v1', token_env_var: 'MY_TOKEN', message_language: 'typescript' }]);
    expect(json.terraform.required_providers.hosting.source).toBe('local.cdktf-server-hosting.invalid/cdktf-server-hosting/hosting');
    expect(resourceOf(json, 'hosting_server_firewall')).toMatchObject({ server_id: VPS, enabled: true, rulesets: [2, 1], ruleset_names: ['web'] });
    expect(resourceOf(json, 'hosting_ip_settings')).toMatchObject({ server_id: DED, ip: '203.0.113.10', rdns: 'web.example.com', protection: { layer4: 'permanent', layer7: 'only' }, on_destroy: 'restore' });
    expect(resourceOf(json, 'hosting_ip_settings').description).toBeUndefined();
    // One resource: the provider tells a trigger change from a create, so no reboot resource or record.
    expect(resourceOf(json, 'hosting_power_state')).toEqual({ provider: 'hosting', server_id: DED, state: 'running', reboot_triggers: { image: 'v1' }, hard_reboot: true });
    expect(power.rebootResource).toBeUndefined();
    expect(power.fqn).toBe(power.resource.fqn);
  });

  test('expectTakeover reaches the resources; the deprecated planReadMaxAgeSeconds reaches nothing, and makes no provider configuration of its own', () => {
    const s = stack();
    const strict = new HostingApi(s, 'strict', { planReadMaxAgeSeconds: 0 });
    const relaxed = new HostingApi(s, 'relaxed');
    new ServerFirewall(s, 'fw', { api: strict, serverId: VPS, enabled: true, expectTakeover: true });
    new PowerState(s, 'power', { api: relaxed, serverId: DED, state: PowerStateValue.RUNNING });
    const json = synth(s);
    expect(json.provider.hosting).toEqual([{ token_env_var: 'HOSTING_API_TOKEN', message_language: 'typescript' }]);
    expect(resourceOf(json, 'hosting_server_firewall')).toMatchObject({ expect_takeover: true });
    expect(resourceOf(json, 'hosting_power_state').expect_takeover).toBeUndefined();
  });

  test('changedSincePlan reaches the provider block and each resource that overrides it; FAIL needs the provider', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting', { changedSincePlan: ChangedSincePlan.FAIL });
    new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true, changedSincePlan: ChangedSincePlan.OVERWRITE });
    new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.10', rdns: 'web.example.com' });
    const json = synth(s);
    expect(json.provider.hosting).toEqual([{ token_env_var: 'HOSTING_API_TOKEN', changed_since_plan: 'fail', message_language: 'typescript' }]);
    expect(resourceOf(json, 'hosting_server_firewall')).toMatchObject({ changed_since_plan: 'overwrite' });
    expect(resourceOf(json, 'hosting_ip_settings').changed_since_plan).toBeUndefined();
    const bridged = new HostingApi(stack(), 'bridged', { bridge: Bridge.TERRAFORM_DATA });
    expect(() => new HostingApi(stack(), 'hosting', { bridge: Bridge.TERRAFORM_DATA, changedSincePlan: ChangedSincePlan.FAIL }))
      .toThrow('HostingApi at test/hosting: changedSincePlan needs Bridge.PROVIDER (the default), but the HostingApi uses Bridge.TERRAFORM_DATA: a bridge resource reads the server only at apply');
    expect(() => new ServerFirewall(bridged.node.scope as TerraformStack, 'fw', { api: bridged, serverId: VPS, enabled: true, changedSincePlan: ChangedSincePlan.FAIL }))
      .toThrow('ServerFirewall at test/fw: changedSincePlan needs Bridge.PROVIDER');
    expect(() => new HostingApi(stack(), 'typo', { changedSincePlan: 'fial' as ChangedSincePlan })).toThrow('HostingApi at test/typo: changedSincePlan is "fial"; expected one of "overwrite", "fail"');
  });

  test('each construct names its resource type as cdktf\'s own classes do, for Testing\'s matchers', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true });
    new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.10', rdns: 'a.example.com' });
    new PowerState(s, 'power', { api, serverId: DED, state: PowerStateValue.RUNNING });
    Testing.setupJest();
    const synthesized = Testing.synth(s);
    expect(synthesized).toHaveResourceWithProperties(ServerFirewall, { server_id: VPS, enabled: true });
    expect(synthesized).toHaveResourceWithProperties(IpSettings, { rdns: 'a.example.com' });
    expect(synthesized).toHaveResourceWithProperties(PowerState, { state: 'running' });
    expect([ServerFirewall.tfResourceType, IpSettings.tfResourceType, PowerState.tfResourceType]).toEqual(['hosting_server_firewall', 'hosting_ip_settings', 'hosting_power_state']);
  });

  test('importExisting() adds an import block with each kind\'s documented id', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true }).importExisting();
    new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.10', rdns: 'a.example.com' }).importExisting();
    new PowerState(s, 'power', { api, serverId: DED, state: PowerStateValue.RUNNING }).importExisting();
    const imports = synth(s).import.map((i: any) => [i.to.replace(/\.[^.]+$/, ''), i.id]);
    expect(imports).toEqual([
      ['hosting_server_firewall', VPS],
      ['hosting_ip_settings', `${DED}/203.0.113.10`],
      ['hosting_power_state', DED],
    ]);
  });

  test('dependsOn works both ways with any other cdktf resource', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    const other = new DataResource(s, 'other', { input: 'x' });
    const fw = new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true, dependsOn: [other] });
    new DataResource(s, 'after', { input: 'y', dependsOn: [fw] });
    const json = synth(s);
    expect(resourceOf(json, 'hosting_server_firewall').depends_on).toEqual(['terraform_data.other']);
    expect(json.resource.terraform_data.after.depends_on).toEqual([expect.stringMatching(/^hosting_server_firewall\.fw_resource_/)]);
  });
});

describe('what only the provider can do is refused at synth with the bridges, saying why', () => {
  test.each([Bridge.TERRAFORM_DATA, Bridge.NULL_RESOURCE])('%s', (bridge) => {
    const s = stack();
    const api = new HostingApi(s, 'hosting', { bridge });
    const fw = new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true });
    expect(() => fw.importExisting()).toThrow(/^ServerFirewall at test\/fw: importExisting\(\) needs Bridge.PROVIDER \(the default\), but the HostingApi uses Bridge.[A-Z_]+: a bridge resource never reads the server/);
    expect(() => new PowerState(s, 'p', { api, serverId: VPS, state: PowerStateValue.RUNNING }).importExisting()).toThrow('PowerState at test/p: importExisting() needs Bridge.PROVIDER');
    expect(() => new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.10', rdns: 'a.example.com', onDestroy: OnDestroy.RESTORE }))
      .toThrow('IpSettings at test/ip: onDestroy needs Bridge.PROVIDER (the default)');
    expect(() => new ServerFirewall(s, 'fw2', { api, serverId: VPS, enabled: true, onDestroy: OnDestroy.RETAIN })).not.toThrow();
  });
});

describe('the terraform_data bridge', () => {
  test('one resource per construct, document in input, replace on its hash, provisioners read only self', () => {
    const s = stack();
    const api = bridgeApi(s, { baseUrl: 'https://api.example.com/api/v1' });
    new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true, rulesets: [2, 1] });
    const json = synth(s);
    const resources = json.resource.terraform_data;
    expect(Object.keys(resources)).toHaveLength(1);
    const bridge: any = Object.values(resources)[0];
    expect(bridge.input.document).toBe('${jsonencode({"version" = 1, "kind" = "firewall", "serverId" = "vps_web_1", "api" = {"baseUrl" = "https://api.example.com/api/v1", "tokenEnvVar" = "HOSTING_API_TOKEN"}, "desired" = {"enabled" = true, "rulesets" = [2, 1]}})}');
    expect(bridge.triggers_replace.replace).toMatch(/^\$\{sha256\(jsonencode\(/);
    expect(bridge.provisioner.map((p: any) => [p['local-exec'].when, p['local-exec'].command])).toEqual([
      ['create', expect.stringMatching(/^node "assets\/cdktf-server-hosting-handler\/[0-9A-F]+\/index.js" apply$/)],
      ['destroy', expect.stringMatching(/ destroy$/)],
    ]);
    expect(bridge.provisioner.map((p: any) => p['local-exec'].environment)).toEqual([
      { HOSTING_RESOURCE: '${self.input.document}', HOSTING_INSTANCE_ID: '${self.id}' },
      // An imported resource has no stored document; its replacement must not fail on it.
      { HOSTING_RESOURCE: '${try(self.input.document, "")}', HOSTING_INSTANCE_ID: '${self.id}' },
    ]);
    expect(json.provider).toBeUndefined();
  });

  test('the handler is shipped once per stack, however many constructs use it', () => {
    const s = stack();
    const a = new HostingApi(s, 'a', { bridge: Bridge.TERRAFORM_DATA });
    const b = new HostingApi(s, 'b', { bridge: Bridge.TERRAFORM_DATA, tokenEnvVar: 'OTHER_TOKEN' });
    expect(a._handlerPath()).toBe(b._handlerPath());
    expect(s.node.children.filter((c) => c.node.id === 'cdktf-server-hosting-handler')).toHaveLength(1);
  });

  test('PowerState adds a reboot resource and its armed record only with reboot triggers', () => {
    const s = stack();
    const api = bridgeApi(s);
    new PowerState(s, 'plain', { api, serverId: VPS, state: PowerStateValue.RUNNING });
    const withReboot = new PowerState(s, 'rebooting', { api, serverId: DED, state: PowerStateValue.RUNNING, stopMethod: StopMethod.POWER_OFF, rebootTriggers: { image: 'v1' }, hardReboot: true });
    const resources = synth(s).resource.terraform_data;
    expect(Object.keys(resources).map((k) => k.replace(/_[0-9A-F]{8}$/, '')).sort()).toEqual(['plain_bridge', 'rebooting_bridge', 'rebooting_reboot', 'rebooting_reboot-armed']);
    const armed: any = Object.entries(resources).find(([k]) => k.startsWith('rebooting_reboot-armed'))![1];
    // Created only once the power bridge was applied: a failed first apply arms nothing.
    expect(armed).toMatchObject({ input: { at: '${plantimestamp()}' }, lifecycle: { ignore_changes: ['input'] }, depends_on: [expect.stringMatching(/^terraform_data\.rebooting_bridge_/)] });
    const reboot: any = Object.entries(resources).find(([k]) => /^rebooting_reboot_[0-9A-F]+$/.test(k))![1];
    const env = reboot.provisioner[0]['local-exec'].environment;
    expect(env.HOSTING_PLANNED_AT).toBe('${plantimestamp()}');
    expect(env.HOSTING_FIRST_PLANNED_AT).toMatch(/^\$\{terraform_data\.rebooting_reboot-armed_[0-9A-F]+\.output\.at\}$/);
    expect(env.HOSTING_RESOURCE).toContain('"hard" = true');
    expect(reboot.depends_on).toEqual([expect.stringMatching(/^terraform_data\.rebooting_bridge_/)]);
    // Only the triggers replace it (and so reboot); no input, no destroy-time run.
    expect(reboot.triggers_replace).toEqual({ reboot: '${sha256(jsonencode({"image" = "v1"}))}' });
    expect(reboot.input).toBeUndefined();
    expect(reboot.provisioner).toHaveLength(1);
    expect(withReboot.fqn).toBe(withReboot.rebootResource!.fqn);
  });

  test('dependsOn works between these constructs and any other cdktf resource', () => {
    const s = stack();
    const api = bridgeApi(s);
    const other = new DataResource(s, 'other', { input: 'x' });
    const fw = new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true, dependsOn: [other] });
    new DataResource(s, 'after', { input: 'y', dependsOn: [fw] });
    const resources = synth(s).resource.terraform_data;
    const fwBridge: any = Object.entries(resources).find(([k]) => k.startsWith('fw_bridge'))![1];
    expect(fwBridge.depends_on).toEqual(['terraform_data.other']);
    expect(resources.after.depends_on).toEqual([expect.stringMatching(/^terraform_data\.fw_bridge_/)]);
  });

  test('unresolved tokens are passed through for the handler to check at apply time', () => {
    const s = stack();
    const api = bridgeApi(s);
    const source = new DataResource(s, 'source', { input: VPS });
    const fw = new ServerFirewall(s, 'fw', { api, serverId: source.getStringAttribute('output'), enabled: true });
    expect(Testing.synth(s)).toContain('\\"serverId\\" = terraform_data.source.output');
    expect(fw.serverId).toMatch(/TfToken/);
  });
});

test('the null_resource bridge configures the null provider once and reads from self.triggers', () => {
  const s = stack();
  const api = new HostingApi(s, 'hosting', { bridge: Bridge.NULL_RESOURCE });
  new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: false });
  new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.10', description: 'x' });
  new PowerState(s, 'power', { api, serverId: VPS, state: PowerStateValue.STOPPED, rebootTriggers: { a: 'b' } });
  const json = synth(s);
  expect(Object.keys(json.provider)).toEqual(['null']);
  // What @cdktf/provider-null 11 wrote, so stacks that used it replace nothing after the upgrade.
  expect(json.terraform.required_providers).toEqual({ null: { source: 'null', version: '3.2.4' } });
  expect(json.provider.null).toEqual([{}]);
  expect(json.resource.terraform_data).toBeUndefined();
  const resources: any[] = Object.values(json.resource.null_resource);
  expect(resources).toHaveLength(5);
  const fw = Object.entries(json.resource.null_resource).find(([k]) => k.startsWith('fw_bridge'))![1] as any;
  expect(fw.triggers.document).toMatch(/^\$\{jsonencode\(/);
  expect(fw.provisioner[1]['local-exec'].environment.HOSTING_RESOURCE).toBe('${try(self.triggers.document, "")}');
  const armed = Object.entries(json.resource.null_resource).find(([k]) => k.startsWith('power_reboot-armed'))![1] as any;
  expect(armed.lifecycle.ignore_changes).toEqual(['triggers']);
  const reboot = Object.entries(json.resource.null_resource).find(([k]) => /^power_reboot_[0-9A-F]+$/.test(k))![1] as any;
  expect(reboot.triggers).toEqual({ reboot: '${sha256(jsonencode({"a" = "b"}))}' });
});

describe('synth-time validation names the construct path, the prop and the value', () => {
  const build = (fn: (s: TerraformStack, api: HostingApi) => void) => () => {
    const s = stack();
    fn(s, new HostingApi(s, 'hosting'));
  };
  test.each<[string, (s: TerraformStack, api: HostingApi) => void, string]>([
    ['a malformed server id', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: 'web-1', enabled: true }),
      'ServerFirewall at test/fw: serverId "web-1" is not a server id: expected vps_<segment>_<number> or ded_<uuid> (spec 2.1), as listed by GET /servers'],
    ['a server id with the letter l for the digit 1', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: 'vps_web_l', enabled: true }),
      'ServerFirewall at test/fw: serverId "vps_web_l" is not a server id: expected vps_<segment>_<number> or ded_<uuid> (spec 2.1), as listed by GET /servers; did you mean "vps_web_1"?'],
    ['a firewall on a dedicated server', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: DED, enabled: true }),
      `ServerFirewall at test/fw: serverId "${DED}" must be a VPS (vps_…): the firewall exists only for virtual servers`],
    ['IP settings on a VPS', (s, api) => new IpSettings(s, 'ip', { api, serverId: VPS, ip: '198.51.100.1', rdns: 'a.example.com' }),
      `IpSettings at test/ip: serverId "${VPS}" must be a dedicated server (ded_…): IP settings exist only for dedicated servers`],
    ['a bad IPv4', (s, api) => new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.300', rdns: 'a.example.com' }),
      'IpSettings at test/ip: ip "203.0.113.300" is not an IPv4 address'],
    ['a bad rdns', (s, api) => new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.10', rdns: 'web_1 .example' }),
      'IpSettings at test/ip: rdns "web_1 .example" is not a reverse DNS name: it must be one word without spaces or control characters (the API judges the rest)'],
    ['a bad protection enum (from Python, say)', (s, api) => new IpSettings(s, 'ip', { api, serverId: DED, ip: '203.0.113.10', protection: { layer4: 'always' as Layer4Protection, layer7: Layer7Protection.OFF } }),
      'IpSettings at test/ip: protection.layer4 is "always"; expected one of "dynamic", "permanent"'],
    ['a fractional rule set id', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: VPS, rulesets: [1.5] }),
      'ServerFirewall at test/fw: rulesets contains 1.5; rule set ids are non-negative integers (see GET /firewall/rulesets)'],
    ['rule sets by name in rulesets', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: VPS, rulesets: ['web'] as unknown as number[] }),
      'ServerFirewall at test/fw: rulesets contains the string "web"; rulesets takes ids (numbers); rule sets by name go in rulesetNames'],
    ['rule set ids as one string', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: VPS, rulesets: '1,2' as unknown as number[] }),
      'ServerFirewall at test/fw: rulesets is the string "1,2", not a list: write the ids as a list, e.g. [1, 2]'],
    ['nothing managed', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: VPS }),
      'ServerFirewall at test/fw: enabled, rulesets, rulesetNames are all unset; set at least one, or remove the construct'],
    ['a bad power state', (s, api) => new PowerState(s, 'p', { api, serverId: VPS, state: 'paused' as PowerStateValue }),
      'PowerState at test/p: state is "paused"; expected one of "running", "stopped"'],
    ['hardReboot without rebootTriggers', (s, api) => new PowerState(s, 'p', { api, serverId: VPS, state: PowerStateValue.RUNNING, hardReboot: true }),
      'PowerState at test/p: hardReboot is true but rebootTriggers is not set, so there is never a reboot for it to change; set rebootTriggers or remove hardReboot'],
    ['a non-positive timeout', (s, api) => new PowerState(s, 'p', { api, serverId: VPS, state: PowerStateValue.RUNNING, readyTimeoutSeconds: 0 }),
      'PowerState at test/p: readyTimeoutSeconds is 0; it must be a positive number of seconds'],
  ])('%s', (_n, fn, message) => {
    expect(build(fn)).toThrow(message);
  });

  test.each([
    ['https://api.example.com', 'must be an http(s) URL whose path ends in /api/v1'],
    ['https://u:p@api.example.com/api/v1', 'must not contain credentials'],
    ['not a url', 'is not an absolute URL'],
  ])('HostingApi baseUrl %s', (baseUrl, message) => {
    expect(() => new HostingApi(stack(), 'hosting', { baseUrl })).toThrow('HostingApi at test/hosting: baseUrl');
    expect(() => new HostingApi(stack(), 'hosting', { baseUrl })).toThrow(message);
  });
});

describe('when Python drives the library (JSII_AGENT), synth-time errors speak its names', () => {
  beforeEach(() => {
    process.env.JSII_AGENT = 'Python/3.12.1/linux';
  });
  afterEach(() => {
    delete process.env.JSII_AGENT;
  });

  test.each<[string, (s: TerraformStack, api: HostingApi) => unknown, string]>([
    ['hardReboot without rebootTriggers', (s, api) => new PowerState(s, 'p', { api, serverId: VPS, state: PowerStateValue.RUNNING, hardReboot: true }),
      'PowerState at test/p: hard_reboot is true but reboot_triggers is not set, so there is never a reboot for it to change; set reboot_triggers or remove hard_reboot'],
    ['rule sets by name in rulesets', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: VPS, rulesets: ['web'] as unknown as number[] }),
      'ServerFirewall at test/fw: rulesets contains the string "web"; rulesets takes ids (numbers); rule sets by name go in ruleset_names'],
    ['a value the user gave stays as given', (s, api) => new ServerFirewall(s, 'fw', { api, serverId: 'webServer', enabled: true }),
      'ServerFirewall at test/fw: server_id "webServer" is not a server id'],
  ])('%s', (_n, fn, message) => {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    expect(() => fn(s, api)).toThrow(message);
  });

  test('the error\'s stack only points at the message: jsii prints it above Python\'s RuntimeError, which says the message once, last', () => {
    const s = stack();
    const error = (() => {
      try {
        new ServerFirewall(s, 'fw', { api: new HostingApi(s, 'hosting'), serverId: 'web-1', enabled: true });
      } catch (e) {
        return e as Error;
      }
      return undefined;
    })();
    expect(error?.stack).toBe('ValidationError (the RuntimeError below says why)');
    delete process.env.JSII_AGENT;
    try {
      new ServerFirewall(stack(), 'fw', { api: new HostingApi(stack(), 'hosting'), serverId: 'web-1', enabled: true });
    } catch (e) {
      // TypeScript keeps its stack: it leads to the user's own line.
      expect((e as Error).stack).toMatch(/\n\s+at /);
    }
  });
});

describe('the token never reaches the synth output, and never crosses a network in clear text', () => {
  const message = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };

  test.each(['hsk_live_0123456789abcdef0123', 'HSK_LIVE_0123456789ABCDEF0123456789', 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789', 'dGhpcyBpcyBub3QgYSB0b2tlbg'])(
    'a token pasted as tokenEnvVar is refused without being echoed (%s)', (secret) => {
      const text = message(() => new HostingApi(stack(), 'hosting', { tokenEnvVar: secret }));
      expect(text).toMatch(/^HostingApi at test\/hosting: tokenEnvVar must be the NAME of an environment variable \(short upper-case words joined by underscores, such as HOSTING_API_TOKEN\), not the token itself; the value is not shown in case it is a secret$/);
      expect(text).not.toContain(secret);
    },
  );

  test.each(['http://api.example.com/api/v1', 'http://10.1.2.3:8080/api/v1'])('plain http to another machine is refused: %s', (baseUrl) => {
    expect(message(() => new HostingApi(stack(), 'hosting', { baseUrl }))).toContain('uses plain http to another machine, which would send the token in clear text; use https (or set allowInsecureHttp to true');
  });

  test('plain http is allowed to loopback, and elsewhere only with allowInsecureHttp, which the provider and the handler are told', () => {
    expect(() => new HostingApi(stack(), 'local', { baseUrl: 'http://127.0.0.1:8787/api/v1' })).not.toThrow();
    const s = stack();
    const viaProvider = new HostingApi(s, 'provider', { baseUrl: 'http://api.internal.example/api/v1', allowInsecureHttp: true });
    new ServerFirewall(s, 'fw', { api: viaProvider, serverId: VPS, enabled: true });
    const api = bridgeApi(s, { baseUrl: 'http://api.internal.example/api/v1', allowInsecureHttp: true });
    new ServerFirewall(s, 'fw-bridge', { api, serverId: VPS, enabled: true });
    const json = synth(s);
    expect(json.provider.hosting[0].allow_insecure_http).toBe(true);
    expect(resourceOf(json, 'terraform_data').input.document).toContain('"allowInsecureHttp" = true');
  });
});

describe('DataHostingServer and the read-back getters', () => {
  test('selects by name or by id, through the provider whatever the bridge; the id feeds a resource as a token', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting', { bridge: Bridge.TERRAFORM_DATA });
    const web = new DataHostingServer(s, 'web', { api, name: 'web-1' });
    new ServerFirewall(s, 'fw', { api, serverId: web.serverId, enabled: true });
    new DataHostingServer(s, 'metal', { api, serverId: DED });
    const json = synth(s);
    expect(Object.values(json.data.hosting_server)).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'web-1', provider: 'hosting' }),
      expect.objectContaining({ id: DED, provider: 'hosting' }),
    ]));
    expect(Testing.synth(s)).toContain('\\"serverId\\" = data.hosting_server.web_data_');
  });

  test.each<[string, object, string]>([
    ['neither', {}, 'DataHostingServer at test/web: serverId, name are both unset; set exactly one'],
    ['both', { serverId: VPS, name: 'web-1' }, 'DataHostingServer at test/web: serverId, name are both set; set exactly one'],
    ['a malformed id', { serverId: 'web-1' }, 'DataHostingServer at test/web: serverId "web-1" is not a server id'],
  ])('%s is refused at synth', (_name, props, message) => {
    const s = stack();
    expect(() => new DataHostingServer(s, 'web', { api: new HostingApi(s, 'hosting'), ...props })).toThrow(message);
  });

  test('the resources\' read-back getters need the provider, and say so with a bridge', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting', { bridge: Bridge.TERRAFORM_DATA });
    const fw = new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true });
    expect(() => fw.appliedRulesets).toThrow('ServerFirewall at test/fw: appliedRulesets needs Bridge.PROVIDER (the default)');
    const provided = new ServerFirewall(s, 'fw2', { api: new HostingApi(s, 'p'), serverId: VPS, enabled: true });
    expect(Token.isUnresolved(provided.appliedRulesets)).toBe(true);
  });
});

describe('cdktf\'s meta-arguments on every construct', () => {
  test('forEach over a data source\'s ids: one firewall per id, the iterator value as the server id (as is, as Python passes it), a lifecycle block', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    const vps = new DataHostingServers(s, 'vps', { api, serverType: 'vps', status: 'active', accessRole: 'primary' });
    const it = TerraformIterator.fromList(vps.ids);
    new ServerFirewall(s, 'fw', { api, forEach: it, serverId: it.value, enabled: true, lifecycle: { preventDestroy: true } });
    new PowerState(s, 'power', { api, count: 2, serverId: Token.asString(it.value), state: PowerStateValue.RUNNING });
    const json = synth(s);
    expect(Object.values(json.data.hosting_servers)[0]).toMatchObject({ type: 'vps', status: 'active', access_role: 'primary' });
    const fw = resourceOf(json, 'hosting_server_firewall');
    expect(fw).toMatchObject({ for_each: expect.stringMatching(/^\$\{toset\(data\.hosting_servers\./), server_id: '${each.value}', lifecycle: { prevent_destroy: true } });
    expect(resourceOf(json, 'hosting_power_state')).toMatchObject({ count: 2 });
  });

  test('data sources take forEach too', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    const it = TerraformIterator.fromList(['vps_a_1', 'vps_b_2']);
    new DataHostingServerFirewall(s, 'fw', { api, forEach: it, serverId: it.value });
    expect(Object.values(synth(s).data.hosting_server_firewall)[0]).toMatchObject({ for_each: expect.anything(), server_id: '${each.value}' });
  });

  test.each([
    ['a list', ['vps_a_1', 'vps_b_2'], 'an array'],
    ['a plain object', { web: 'vps_a_1' }, 'an object'],
    ['a string', 'vps_a_1', 'a string'],
  ])('a forEach that is %s (JavaScript allows it) fails at synth naming the construct and prop, not inside cdktf', (_, forEach, what) => {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    expect(() => new ServerFirewall(s, 'fw', { api, forEach: forEach as unknown as TerraformIterator, serverId: VPS, enabled: true })).toThrow(
      `ServerFirewall at test/fw: forEach must be a TerraformIterator (TerraformIterator.fromList(ids), or fromMap), not ${what}: wrap a list in TerraformIterator.fromList`,
    );
    expect(() => new DataHostingServerFirewall(s, 'data', { api, forEach: forEach as unknown as TerraformIterator, serverId: VPS })).toThrow('DataHostingServerFirewall at test/data: forEach must be a TerraformIterator');
  });

  test.each(['forEach', 'count', 'lifecycle'] as const)('%s with a bridge is refused at synth, naming the bridge that supports it', (name) => {
    const s = stack();
    const meta = { forEach: TerraformIterator.fromList(['vps_a_1']), count: 2, lifecycle: { preventDestroy: true } }[name];
    expect(() => new ServerFirewall(s, 'fw', { api: bridgeApi(s), serverId: VPS, enabled: true, [name]: meta })).toThrow(
      new RegExp(`ServerFirewall at test/fw: ${name}.* needs Bridge\\.PROVIDER \\(the default\\), but the HostingApi uses Bridge\\.TERRAFORM_DATA`),
    );
  });
});

test('importExisting() on a construct with forEach says how to import its instances instead', () => {
  const s = stack();
  const api = new HostingApi(s, 'hosting');
  const it = TerraformIterator.fromList(['vps_a_1']);
  const fw = new ServerFirewall(s, 'fw', { api, forEach: it, serverId: it.value, enabled: true });
  expect(() => fw.importExisting()).toThrow(/ServerFirewall at test\/fw: importExisting\(\) adopts one instance, but this construct has forEach or count; import its instances with terraform import/);
});

describe('what a construct with forEach or count reads is refused at synth, not synthesized as each.key (issue 42, point 4)', () => {
  function repeated() {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    const fleet = TerraformIterator.fromMap({ [VPS]: { ip: '203.0.113.10' } });
    return {
      s,
      fleet,
      fw: new ServerFirewall(s, 'fw', { api, forEach: fleet, serverId: fleet.key, enabled: true }),
      ip: new IpSettings(s, 'ip', { api, forEach: fleet, serverId: fleet.key, ip: fleet.getString('ip'), rdns: 'web.example.com' }),
      power: new PowerState(s, 'power', { api, count: 2, serverId: VPS, state: PowerStateValue.RUNNING }),
    };
  }
  const reads: Array<[string, (c: ReturnType<typeof repeated>) => unknown, string]> = [
    ['ServerFirewall at test/fw: serverId', (c) => c.fw.serverId, 'server_id'],
    ['ServerFirewall at test/fw: appliedRulesets', (c) => c.fw.appliedRulesets, 'applied_rulesets'],
    ['ServerFirewall at test/fw: firewallEnabled', (c) => c.fw.firewallEnabled, 'enabled'],
    ['IpSettings at test/ip: serverId', (c) => c.ip.serverId, 'server_id'],
    ['IpSettings at test/ip: ip', (c) => c.ip.ip, 'ip'],
    ['IpSettings at test/ip: rdns', (c) => c.ip.rdns, 'rdns'],
    ['IpSettings at test/ip: protectionLayer4', (c) => c.ip.protectionLayer4, 'protection.layer4'],
    ['PowerState at test/power: serverId', (c) => c.power.serverId, 'server_id'],
    ['PowerState at test/power: power', (c) => c.power.power, 'state'],
  ];
  test.each(reads)('%s names the prop and how to read one instance', (where, read, attribute) => {
    const c = repeated();
    expect(() => read(c)).toThrow(`${where} is read from a construct with forEach or count, which stands for several instances: `
      + `give other repeated constructs the iterator itself (iterator.key), and read one instance as \${<resource.fqn>["<key>"].${attribute}}`);
  });

  test('the way the message gives reads one instance, and a single construct still reads its own values', () => {
    const c = repeated();
    new TerraformOutput(c.s, 'one', { value: `\${${c.fw.resource.fqn}["${VPS}"].server_id}` });
    const single = new ServerFirewall(c.s, 'single', { api: new HostingApi(c.s, 'other'), serverId: 'vps_web_2', enabled: true });
    new TerraformOutput(c.s, 'single_id', { value: single.serverId });
    const outputs = synth(c.s).output;
    expect(outputs.one.value).toMatch(new RegExp(`^\\\$\\{hosting_server_firewall\\.fw_resource_[0-9A-F]+\\["${VPS}"\\]\\.server_id\\}$`));
    expect(outputs.single_id.value).toBe('vps_web_2');
    expect(JSON.stringify(outputs)).not.toContain('each.key');
  });
});

describe('HostingApi standaloneProvider: the stack carries the standalone executables of a mirror', () => {
  const version = providerVersion(readProviderBundle());
  let mirror: string;
  beforeAll(() => {
    mirror = mkdtempSync(join(tmpdir(), 'standalone-mirror-'));
    writeProviderMirror(mirror, standalonePackage(version, new Map([['linux_amd64', Buffer.from('linux exe')], ['darwin_arm64', Buffer.from('mac exe')]])));
  });
  afterAll(() => rmSync(mirror, { recursive: true, force: true }));

  test('synth writes each platform\'s executable into the stack\'s plugin folder and records each platform\'s hash in the lock file', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'standalone-synth-'));
    try {
      const app = new App({ outdir });
      const s = new TerraformStack(app, 'test');
      new ServerFirewall(s, 'fw', { api: new HostingApi(s, 'hosting', { standaloneProvider: mirror }), serverId: VPS, enabled: true });
      app.synth();
      const plugins = join(outdir, 'stacks', 'test', 'terraform.d', 'plugins', ...PROVIDER_SOURCE.split('/'), version);
      expect(readdirSync(plugins).sort()).toEqual(['darwin_arm64', 'linux_amd64']);
      expect(readFileSync(join(plugins, 'linux_amd64', `terraform-provider-hosting_v${version}`), 'utf8')).toBe('linux exe');
      const lock = readFileSync(join(outdir, 'stacks', 'test', '.terraform.lock.hcl'), 'utf8');
      expect(lock.match(/"h1:[^"]+"/g)).toHaveLength(2);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('refused at construction, naming the construct, the prop and the value: no mirror of this version, a bridge, or two different mirrors in one stack', () => {
    const s = stack();
    expect(() => new HostingApi(s, 'missing', { standaloneProvider: '/nowhere' }))
      .toThrow(new RegExp(`^HostingApi at test/missing: standaloneProvider "/nowhere" holds no standalone provider ${version.replace(/\./g, '\\.')} \\(looked in /nowhere\\); write it with "npx cdktf-server-hosting provider mirror --standalone <directory>"`));
    expect(() => new HostingApi(s, 'bridged', { standaloneProvider: mirror, bridge: Bridge.NULL_RESOURCE }))
      .toThrow('HostingApi at test/bridged: standaloneProvider is set with bridge null_resource: the bridges run the handler with node');
    const first = new HostingApi(s, 'first', { standaloneProvider: mirror });
    new ServerFirewall(s, 'fw', { api: first, serverId: VPS, enabled: true });
    const second = new HostingApi(s, 'second', { baseUrl: 'https://other.example.com/api/v1' });
    expect(() => new ServerFirewall(s, 'fw2', { api: second, serverId: VPS, enabled: true })).toThrow(/^HostingApi at test\/second: standaloneProvider is null, but another HostingApi of the stack has ".*": a stack carries one provider package/);
  });
});

describe('movedFromBridge: from a bridge to the provider without a destroy', () => {
  test('writes a moved block from the bridge resource the earlier synth wrote, and forgets a PowerState\'s reboot records', () => {
    const address = (bridge: Bridge) => {
      const s = stack();
      const api = new HostingApi(s, 'hosting', { bridge });
      new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true });
      new PowerState(s, 'power', { api, serverId: DED, state: PowerStateValue.RUNNING, rebootTriggers: { release: '1' } });
      const resources = synth(s).resource;
      return (prefix: string) => `${bridge === Bridge.NULL_RESOURCE ? 'null_resource' : 'terraform_data'}.${Object.keys(resources[bridge === Bridge.NULL_RESOURCE ? 'null_resource' : 'terraform_data']).find((k) => k.startsWith(prefix))}`;
    };
    for (const bridge of [Bridge.TERRAFORM_DATA, Bridge.NULL_RESOURCE]) {
      const before = address(bridge);
      const s = stack();
      const api = new HostingApi(s, 'hosting');
      new ServerFirewall(s, 'fw', { api, serverId: VPS, enabled: true, movedFromBridge: bridge });
      new PowerState(s, 'power', { api, serverId: DED, state: PowerStateValue.RUNNING, rebootTriggers: { release: '1' }, movedFromBridge: bridge });
      const json = synth(s);
      expect(json.moved).toEqual([
        { from: before('fw_bridge_'), to: expect.stringMatching(/^hosting_server_firewall\.fw_resource_/) },
        { from: before('power_bridge_'), to: expect.stringMatching(/^hosting_power_state\.power_resource_/) },
      ]);
      expect(json.removed).toEqual([before('power_reboot_'), before('power_reboot-armed_')].map((from) => ({ from, lifecycle: { destroy: false } })));
      // The state still holds null_resources: their provider stays configured.
      expect(Object.keys(json.provider)).toEqual(bridge === Bridge.NULL_RESOURCE ? ['hosting', 'null'] : ['hosting']);
    }
  });

  test('refused, naming the construct and the prop: to a bridge, from the provider, or with forEach', () => {
    const s = stack();
    expect(() => new ServerFirewall(s, 'a', { api: bridgeApi(s), serverId: VPS, enabled: true, movedFromBridge: Bridge.NULL_RESOURCE }))
      .toThrow('ServerFirewall at test/a: movedFromBridge moves a construct to Bridge.PROVIDER, but its HostingApi uses terraform_data');
    const api = new HostingApi(s, 'provider');
    expect(() => new IpSettings(s, 'b', { api, serverId: DED, ip: '203.0.113.10', rdns: 'a.example.com', movedFromBridge: Bridge.PROVIDER }))
      .toThrow('IpSettings at test/b: movedFromBridge is provider, which is not a bridge');
    expect(() => new PowerState(s, 'c', { api, serverId: TerraformIterator.fromList([VPS]).value, state: PowerStateValue.RUNNING, forEach: TerraformIterator.fromList([VPS]), movedFromBridge: Bridge.TERRAFORM_DATA }))
      .toThrow('PowerState at test/c: movedFromBridge cannot be combined with forEach or count');
  });
});

/**
 * Values known only at plan (an iterator's members, a variable, a function call) are tokens at
 * synth: every synth-time check leaves them to the provider, whatever their kind.
 */
describe('every prop takes a value known only at plan, of its kind', () => {
  const variable = (s: TerraformStack, name: string, type: string) => new TerraformVariable(s, name, { type });
  const text = (s: TerraformStack, name: string) => variable(s, name, 'string').stringValue;
  const number = (s: TerraformStack, name: string) => variable(s, name, 'number').numberValue;
  const flag = (s: TerraformStack, name: string) => variable(s, name, 'bool').booleanValue;
  const numbers = (s: TerraformStack, name: string) => Token.asNumberList(variable(s, name, 'list(number)').value);
  const texts = (s: TerraformStack, name: string) => variable(s, name, 'list(string)').listValue;
  const map = (s: TerraformStack, name: string) => Token.asStringMap(variable(s, name, 'map(string)').value);

  test.each([Bridge.PROVIDER, Bridge.TERRAFORM_DATA])('ServerFirewall, IpSettings, PowerState and HostingApi (%s)', (bridge) => {
    const s = stack();
    const api = new HostingApi(s, 'hosting', { bridge, baseUrl: text(s, 'url'), tokenEnvVar: 'HOSTING_API_TOKEN' });
    new ServerFirewall(s, 'fw', { api, serverId: text(s, 'vps'), enabled: flag(s, 'on'), rulesets: numbers(s, 'ids'), rulesetNames: texts(s, 'names') });
    new ServerFirewall(s, 'fw-fn', { api, serverId: VPS, rulesets: Token.asNumberList(Fn.lookup(variable(s, 'by_server', 'map(list(number))').value, VPS, [])) });
    new IpSettings(s, 'ip', {
      api,
      serverId: text(s, 'ded'),
      ip: text(s, 'address'),
      rdns: text(s, 'rdns'),
      description: text(s, 'description'),
      protection: { layer4: text(s, 'layer4') as Layer4Protection, layer7: text(s, 'layer7') as Layer7Protection },
    });
    new PowerState(s, 'power', {
      api,
      serverId: text(s, 'server'),
      state: text(s, 'state') as PowerStateValue,
      stopMethod: text(s, 'stop') as StopMethod,
      forceStopFallback: flag(s, 'force'),
      rebootTriggers: map(s, 'triggers'),
      hardReboot: flag(s, 'hard'),
      readyTimeoutSeconds: number(s, 'ready'),
      operationTimeoutSeconds: number(s, 'operation'),
    });
    const synthesized = JSON.stringify(synth(s));
    // Each value is the reference Terraform resolves at plan, none a placeholder of cdktf's.
    for (const name of ['vps', 'on', 'ids', 'names', 'by_server', 'ded', 'address', 'rdns', 'layer4', 'state', 'force', 'triggers', 'hard', 'ready']) {
      expect([name, synthesized.includes(`var.${name}`)]).toEqual([name, true]);
    }
    expect(synthesized).not.toMatch(/TfToken|-1\.8881|e\+289/);
    // The bridge's document joins ids and names at plan, keeping the ids numbers (concat would make them strings).
    if (bridge !== Bridge.PROVIDER) expect(synthesized).toContain('flatten([var.ids, var.names])');
  });

  test('forEach over a map with a number list per key (the first-hour bug: -1.888e+289 was refused as a rule set id)', () => {
    const s = stack();
    const api = new HostingApi(s, 'hosting');
    const fleet = TerraformIterator.fromMap({ vps_web_1: { rulesets: [1, 2] }, vps_web_2: { rulesets: [2] } });
    new ServerFirewall(s, 'fw', { api, forEach: fleet, serverId: fleet.key, enabled: true, rulesets: fleet.getNumberList('rulesets') });
    expect(resourceOf(synth(s), 'hosting_server_firewall')).toMatchObject({ for_each: expect.anything(), rulesets: '${each.value.rulesets}' });
  });
});

test('a synth-time error shows the caller\'s frames and none of the library\'s', () => {
  let error: Error | undefined;
  try {
    new ServerFirewall(stack(), 'fw', { api: new HostingApi(stack(), 'hosting'), serverId: 'vps_web2' });
  } catch (e) {
    error = e as Error;
  }
  const frames = error!.stack!.split('\n').filter((line) => /^\s+at /.test(line));
  expect(error!.stack!.split('\n')[0]).toBe(`ValidationError: ${error!.message}`);
  expect(frames.some((line) => line.includes(join('test', 'constructs', 'constructs.test.ts')))).toBe(true);
  expect(frames.filter((line) => line.includes(`${join(__dirname, '..', '..', 'src')}/`) || line.includes(`${join(__dirname, '..', '..', 'lib')}/`))).toEqual([]);
});

test('a description longer than one 10 KB request is refused at synth, quoted short with its length', () => {
  const api = new HostingApi(stack(), 'hosting');
  const long = 'x'.repeat(11_000);
  expect(() => new IpSettings(api.node.scope as TerraformStack, 'ip', { api, serverId: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', ip: '203.0.113.10', description: long }))
    .toThrow(`IpSettings at test/ip: description "${'x'.repeat(80)}"… (11,000 characters) takes 11,018 bytes as a request, more than the API's 10 KB request body holds`);
});
