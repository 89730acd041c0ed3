import { TerraformStack } from 'cdktf';
import { HostingApi, IpSettings, PowerState, PowerStateValue, ServerFirewall } from '../../src';
import type { ResourceDocument } from '../../src/contract/resource-document';
import { parseResourceDocument } from '../../src/reconcile/resource-document-schema';
import { useTestingApps } from '../helpers/testing-apps';

/*
 * A value that synthesizes must never be refused at apply time (by then Terraform has destroyed the
 * old bridge instance), and a value the handler refuses must already fail the synth. Each row is
 * built once as construct props and once as the document the construct writes.
 */
const VPS = 'vps_web_1';
const DED = 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b';
const api = { tokenEnvVar: 'HOSTING_API_TOKEN' };
const timeouts = { readySeconds: 600, operationSeconds: 600 };

type Case = [string, (stack: TerraformStack, hosting: HostingApi) => unknown, ResourceDocument];
const firewall = (serverId: string, desired: { enabled?: boolean; rulesets?: number[]; rulesetNames?: string[] }): Case[1] =>
  (s, hosting) => new ServerFirewall(s, 'fw', { api: hosting, serverId, ...desired });
const firewallDoc = (serverId: string, desired: object) => ({ version: 1, kind: 'firewall', serverId, api, desired }) as ResourceDocument;
const ip = (serverId: string, address: string, desired: { rdns?: string; description?: string }): Case[1] =>
  (s, hosting) => new IpSettings(s, 'ip', { api: hosting, serverId, ip: address, ...desired });
const ipDoc = (serverId: string, address: string, desired: object) => ({ version: 1, kind: 'ip_settings', serverId, ip: address, api, desired }) as ResourceDocument;
const power = (readyTimeoutSeconds: number): Case[1] => (s, hosting) => new PowerState(s, 'p', { api: hosting, serverId: VPS, state: PowerStateValue.RUNNING, readyTimeoutSeconds });
const powerDoc = (readySeconds: number) => ({
  version: 1, kind: 'power_state', serverId: VPS, api, desired: { state: 'running' }, stopMethod: 'shutdown', forceStopFallback: false, timeouts: { ...timeouts, readySeconds },
}) as ResourceDocument;

const refused: Case[] = [
  ['an empty rule set name', firewall(VPS, { rulesetNames: [''] }), firewallDoc(VPS, { rulesets: [''] })],
  ['a negative rule set id', firewall(VPS, { rulesets: [-1] }), firewallDoc(VPS, { rulesets: [-1] })],
  ['a fractional rule set id', firewall(VPS, { rulesets: [1.5] }), firewallDoc(VPS, { rulesets: [1.5] })],
  ['a firewall on a dedicated server', firewall(DED, { enabled: true }), firewallDoc(DED, { enabled: true })],
  ['IP settings on a VPS', ip(VPS, '198.51.100.1', { rdns: 'a.example.com' }), ipDoc(VPS, '198.51.100.1', { rdns: 'a.example.com' })],
  ['an rDNS with a space', ip(DED, '203.0.113.10', { rdns: 'web_1 .example' }), ipDoc(DED, '203.0.113.10', { rdns: 'web_1 .example' })],
  ['an rDNS with a newline', ip(DED, '203.0.113.10', { rdns: 'a.example\n' }), ipDoc(DED, '203.0.113.10', { rdns: 'a.example\n' })],
  ['an empty rDNS', ip(DED, '203.0.113.10', { rdns: '' }), ipDoc(DED, '203.0.113.10', { rdns: '' })],
  ['a bad address', ip(DED, '203.0.113.300', { description: 'x' }), ipDoc(DED, '203.0.113.300', { description: 'x' })],
  ['a zero timeout', power(0), powerDoc(0)],
  ['an infinite timeout', power(Infinity), powerDoc(Infinity)],
  // Issue 75 §3: milliseconds written as seconds would hold a pipeline for good.
  ['a timeout of 1e12 seconds', power(1e12), powerDoc(1e12)],
  ['a timeout of a day and a second', power(86_401), powerDoc(86_401)],
];
const accepted: Case[] = [
  ['rule sets by id and name', firewall(VPS, { rulesets: [0, 2], rulesetNames: ['web'] }), firewallDoc(VPS, { rulesets: [0, 2, 'web'] })],
  ['an rDNS with a final dot and upper case', ip(DED, '203.0.113.10', { rdns: 'WEB1.Example.com.' }), ipDoc(DED, '203.0.113.10', { rdns: 'WEB1.Example.com.' })],
  ['an empty description and one of 300 characters (the API judges lengths)', ip(DED, '203.0.113.10', { description: 'x'.repeat(300) }), ipDoc(DED, '203.0.113.10', { description: 'x'.repeat(300) })],
  ['an rDNS the API returned that is no DNS host name', ip(DED, '203.0.113.10', { rdns: 'mail_relay.example.com' }), ipDoc(DED, '203.0.113.10', { rdns: 'mail_relay.example.com' })],
  ['a description with template sequences, quotes and newlines', ip(DED, '203.0.113.10', { description: '${x} %{y} "q" \\\n' }), ipDoc(DED, '203.0.113.10', { description: '${x} %{y} "q" \\\n' })],
  ['a fractional timeout', power(0.5), powerDoc(0.5)],
  ['a timeout of a day', power(86_400), powerDoc(86_400)],
];

const testingApp = useTestingApps();
const synthesizes = (build: Case[1]) => {
  const stack = new TerraformStack(testingApp(), 'agreement');
  try {
    build(stack, new HostingApi(stack, 'hosting'));
    return true;
  } catch {
    return false;
  }
};
const parses = (doc: ResourceDocument) => {
  try {
    parseResourceDocument(JSON.stringify(doc));
    return true;
  } catch {
    return false;
  }
};

test.each(refused)('refused at synth and at apply alike: %s', (_name, build, doc) => {
  expect([synthesizes(build), parses(doc)]).toEqual([false, false]);
});

test.each(accepted)('accepted at synth and at apply alike: %s', (_name, build, doc) => {
  expect([synthesizes(build), parses(doc)]).toEqual([true, true]);
});
