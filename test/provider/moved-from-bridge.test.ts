import { POWER_DEFAULTS, type ResourceDocument } from '../../src/contract/resource-document';
import { ipSettingsResource } from '../../src/provider/resources/ip-settings';
import { documentFromBridge } from '../../src/provider/resources/moved-from-bridge';
import { powerStateResource } from '../../src/provider/resources/power-state';
import { serverFirewallResource } from '../../src/provider/resources/server-firewall';

const api = { tokenEnvVar: 'HOSTING_API_TOKEN' };
const firewall: ResourceDocument = { version: 1, kind: 'firewall', serverId: 'vps_web_1', api, desired: { enabled: true, rulesets: [1, 'web'] } };
const power: ResourceDocument = {
  version: 1,
  kind: 'power_state',
  serverId: 'vps_web_2',
  api,
  desired: { state: 'stopped' },
  stopMethod: 'power_off',
  forceStopFallback: false,
  timeouts: { readySeconds: POWER_DEFAULTS.readySeconds, operationSeconds: 120 },
};

/** The state JSON each bridge keeps: terraform_data's `input` is a dynamic value (`{ value, type }`), null_resource's `triggers` a map. */
const terraformData = (document: ResourceDocument) => JSON.stringify({ id: 'x', input: { value: { document: JSON.stringify(document) }, type: ['object', { document: 'string' }] }, triggers_replace: null });
const nullResource = (document: ResourceDocument) => JSON.stringify({ id: '1', triggers: { document: JSON.stringify(document), replace: 'abc' } });
const from = (typeName: string, stateJson: string, targetTypeName: string, providerAddress = typeName === 'null_resource' ? 'registry.terraform.io/hashicorp/null' : 'terraform.io/builtin/terraform') =>
  documentFromBridge({ providerAddress, typeName, stateJson, targetTypeName });

test('each bridge\'s state gives back the document, and each kind\'s state is the arguments the construct set', () => {
  expect(from('terraform_data', terraformData(firewall), 'hosting_server_firewall')).toEqual(firewall);
  expect(from('null_resource', nullResource(firewall), 'hosting_server_firewall')).toEqual(firewall);
  expect(serverFirewallResource.stateFromBridge(firewall)).toEqual({ id: 'vps_web_1', server_id: 'vps_web_1', enabled: true, rulesets: [1], ruleset_names: ['web'], applied_rulesets: null, on_destroy: null, expect_takeover: null, changed_since_plan: null });
  // Defaults the bridge ran with are what an unset argument means: they stay unset, so the plan shows no change.
  expect(powerStateResource.stateFromBridge(power)).toMatchObject({ id: 'vps_web_2', state: 'stopped', stop_method: 'power_off', force_stop_fallback: null, ready_timeout_seconds: null, operation_timeout_seconds: 120, reboot_triggers: null });
  const ip: ResourceDocument = { version: 1, kind: 'ip_settings', serverId: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', ip: '203.0.113.11', api, desired: { rdns: 'www.example.com' } };
  expect(ipSettingsResource.stateFromBridge(ip)).toEqual({
    id: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b/203.0.113.11', server_id: 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b', ip: '203.0.113.11', rdns: 'www.example.com', description: null, protection: null, on_destroy: null, expect_takeover: null, changed_since_plan: null,
  });
});

test.each([
  ['the Terraform Registry', 'registry.terraform.io/hashicorp/null'],
  ['OpenTofu\'s registry', 'registry.opentofu.org/hashicorp/null'],
  ['a team\'s mirror under its own host', 'mirror.example.com/hashicorp/null'],
  ['a team\'s mirror under its own host and namespace', 'registry.example.com:8443/platform/null'],
])('a null_resource from the null provider of %s moves: the type and its document decide, not the host', (_, address) => {
  expect(from('null_resource', nullResource(firewall), 'hosting_server_firewall', address)).toEqual(firewall);
});

test('a move from anything else, from a reboot record, or to another kind is refused, saying what to move', () => {
  expect(() => from('null_resource', nullResource(firewall), 'hosting_server_firewall', 'registry.terraform.io/hashicorp/notnull')).toThrow('not from registry.terraform.io/hashicorp/notnull null_resource');
  expect(() => from('terraform_data', terraformData(firewall), 'hosting_server_firewall', 'registry.example.com/hashicorp/terraform')).toThrow('not from registry.example.com/hashicorp/terraform terraform_data');
  expect(() => from('aws_instance', '{}', 'hosting_server_firewall', 'registry.terraform.io/hashicorp/aws')).toThrow('hosting_server_firewall takes moves only from this package\'s bridge resources (terraform_data, null_resource), not from registry.terraform.io/hashicorp/aws aws_instance');
  expect(() => from('terraform_data', JSON.stringify({ id: 'x', input: null, triggers_replace: { value: { reboot: 'abc' } } }), 'hosting_power_state')).toThrow(/holds no construct document: .*a PowerState's reboot record/);
  expect(() => from('terraform_data', terraformData(firewall), 'hosting_power_state')).toThrow('this terraform_data was synthesized for a firewall document (server vps_web_1), which hosting_power_state cannot take over');
});
