import { TerraformOutput, type TerraformStack } from 'cdktf';
import {
  Bridge, DataHostingDdos, DataHostingDdosRules, DataHostingFirewallRulesets, DataHostingIpSettings, DataHostingServer, DataHostingServerFirewall,
  DataHostingServerIps, DataHostingServerMetrics, DataHostingServers, DataHostingServerTraffic, DataHostingToken, HostingApi, IpSettings, PowerState,
  PowerStateValue, ServerFirewall,
} from '../../src';
import { defaultSeed, SEED_DEDICATED_IPS as IPS, SEED_SERVER_IDS as IDS, type RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

const SERVERS_ONLY_TOKEN = 'tok_servers_only_test';

/** The test's own spelling of the API's members as attributes, to compare whole objects. */
const snake = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(snake)
    : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snake(v)]))
      : value;

const DATA_SOURCES = (sim: RunningSimulator) => `provider "hosting" {
  base_url = "${sim.baseUrl}"
}

data "hosting_token" "me" {}
data "hosting_servers" "all" {}
data "hosting_servers" "vps" {
  type = "vps"
}
data "hosting_server" "metal" {
  name = "metal-1"
}
data "hosting_server_ips" "metal" {
  server_id = data.hosting_server.metal.id
}
data "hosting_ip_settings" "primary" {
  server_id = "${IDS.dedicated}"
  ip        = "${IPS.primary}"
}
data "hosting_server_firewall" "web2" {
  server_id = "${IDS.vpsStopped}"
}
data "hosting_firewall_rulesets" "all" {}
data "hosting_server_metrics" "web1" {
  server_id = "${IDS.vpsRunning}"
}
data "hosting_server_traffic" "metal" {
  server_id = "${IDS.dedicated}"
}
data "hosting_server_traffic" "web1" {
  server_id = "${IDS.vpsRunning}"
}
data "hosting_ddos" "metal" {
  server_id = "${IDS.dedicated}"
}
data "hosting_ddos_rules" "metal" {
  server_id = "${IDS.dedicated}"
  ip        = "${IPS.primary}"
}

output "token" { value = data.hosting_token.me }
output "servers" { value = data.hosting_servers.all }
output "vps_ids" { value = data.hosting_servers.vps.ids }
output "metal" { value = data.hosting_server.metal }
output "metal_ips" { value = data.hosting_server_ips.metal.addresses }
output "primary" { value = data.hosting_ip_settings.primary }
output "web2_firewall" { value = data.hosting_server_firewall.web2 }
output "rulesets" { value = data.hosting_firewall_rulesets.all.rulesets }
output "web1_metrics" { value = data.hosting_server_metrics.web1 }
output "metal_traffic" { value = data.hosting_server_traffic.metal }
output "web1_traffic" { value = data.hosting_server_traffic.web1 }
output "metal_ddos" { value = data.hosting_ddos.metal }
output "metal_ddos_rules" { value = data.hosting_ddos_rules.metal }
`;

/**
 * Every data source from plain HCL (through `provider mirror`) with the real terraform: the values
 * are the simulator's, nested members included; the run reads each endpoint once and writes nothing;
 * stale answers warn and say `stale = true`; a 404 and a missing scope say what is wrong.
 */
describeWithTerraform('data sources from plain HCL', () => {
  let sim: RunningSimulator;
  const workspaces: TerraformWorkspace[] = [];
  const hcl = async (text: string, token = SENTINEL_TOKEN) => {
    const env: Record<string, string> = { HOSTING_API_TOKEN: token };
    const ws = new TerraformWorkspace(env);
    workspaces.push(ws);
    ws.writeHcl(env, text);
    expect((await ws.init()).code).toBe(0);
    return ws;
  };
  const outputs = async (ws: TerraformWorkspace) => {
    const res = await ws.terraform(['output', '-json']);
    const json = JSON.parse(res.output) as Record<string, { value: any }>;
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, v.value])) as Record<string, any>;
  };
  const api = async (path: string) => ((await (await fetch(`${sim.baseUrl}${path}`, { headers: { authorization: `Bearer ${sim.tokens.full}` } })).json()) as { data: any }).data;

  beforeAll(async () => {
    const seed = defaultSeed();
    const serversOnly = { ...seed.tokens[0], name: 'servers-only', secret: SERVERS_ONLY_TOKEN, scopes: ['servers:read' as const] };
    sim = await simulatorWithSentinel({ seed: { ...seed, tokens: [...seed.tokens, serversOnly] } });
    // The seeded provisioning server turns active 1.5 s after start: let it, so the list the data
    // sources read and the one the test compares with are the same.
    await new Promise((resolve) => setTimeout(resolve, 1_600));
  });
  afterAll(async () => {
    await sim?.close();
    workspaces.forEach((ws) => ws.dispose());
  });

  test('every data source reads the simulator\'s values, nested members included, with one request per endpoint and no write', async () => {
    const ws = await hcl(DATA_SOURCES(sim));
    const before = sim.requests.length;
    const plan = await ws.terraform(['plan', '-input=false', '-no-color']);
    expect(plan.code).toBe(0);
    const requests = sim.requests.slice(before);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(requests.filter((r) => r.endpoint === 'GET /servers')).toHaveLength(1);
    // 13 data sources: the two server lists and the lookup by name share one GET /servers; hosting_token is ConfigureProvider's GET /connect.
    expect(requests.filter((r) => r.endpoint === 'GET /connect')).toHaveLength(1);
    expect(requests).toHaveLength(12);

    expect((await ws.apply()).code).toBe(0);
    const out = await outputs(ws);
    expect(out.token).toMatchObject({ account_id: 4711, token_name: 'sentinel', token_type: 'personal_token', api_version: 'v1', stale: false });
    expect(out.token.scopes).toEqual(expect.arrayContaining(['servers:read', 'network:write']));
    expect(out.servers.servers).toEqual(snake(await api('/servers')));
    expect(out.servers.ids).toEqual((await api('/servers')).map((s: { id: string }) => s.id));
    expect(out.vps_ids).toEqual(expect.arrayContaining([IDS.vpsRunning, IDS.vpsStopped]));
    expect(out.vps_ids).not.toContain(IDS.dedicated);
    expect(out.metal).toMatchObject({ ...(snake(await api(`/servers/${IDS.dedicated}`)) as object), name: 'metal-1' });
    expect(out.metal_ips).toEqual(snake(await api(`/servers/${IDS.dedicated}/ips`)));
    expect(out.primary).toMatchObject({ rdns: 'metal-1.example.com', description: 'primary', protection: { layer4: 'dynamic', layer7: 'off' }, editable: { rdns: true, description: true, protection: true } });
    expect(out.web2_firewall).toMatchObject({ enabled: true, rulesets: [2] });
    expect(out.rulesets).toEqual([{ id: 1, name: 'web' }, { id: 2, name: 'ssh' }, { id: 3, name: 'mail' }, { id: 4, name: 'monitoring' }]);
    expect(out.web1_metrics).toMatchObject({ ...(snake(await api(`/servers/${IDS.vpsRunning}/metrics`)) as object), server_id: IDS.vpsRunning });
    expect(out.metal_traffic).toMatchObject({ ...(snake(await api(`/servers/${IDS.dedicated}/traffic`)) as object), months: [] });
    expect(out.web1_traffic).toMatchObject({ kind: 'monthly', from: null, totals: null, interfaces: [], months: snake((await api(`/servers/${IDS.vpsRunning}/traffic`)).months) });
    expect(out.metal_ddos).toMatchObject(snake(await api(`/servers/${IDS.dedicated}/ddos`)) as object);
    expect(out.metal_ddos.incidents[0]).toMatchObject({ peak: '18.4 Gbps', attack_types: ['udp_flood', 'syn_flood'] });
    expect(out.metal_ddos_rules).toMatchObject({ available: true, rules: (await api(`/servers/${IDS.dedicated}/ips/${IPS.primary}/ddos/rules`)).rules });
    expect(out.web1_metrics.observed_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(sim.executed()).toEqual([]);
  });

  test('a stale answer is shown with stale = true and a warning', async () => {
    const ws = await hcl(`provider "hosting" {
  base_url = "${sim.baseUrl}"
}
data "hosting_server_firewall" "web2" {
  server_id = "${IDS.vpsStopped}"
}
output "firewall" { value = data.hosting_server_firewall.web2 }
`);
    expect((await ws.apply()).code).toBe(0);
    sim.addFault({ endpoint: 'GET /servers/{serverId}/firewall', times: 1, effect: { type: 'stale' } });
    const run = await ws.apply();
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/Warning: hosting_server_firewall: live data is unavailable; the API served its last good value, observed at \S+ \(stale = true\)/);
    expect((await outputs(ws)).firewall).toMatchObject({ enabled: true, stale: true });
  });

  test('a server that does not exist, a name that matches none, and a missing scope say what is wrong', async () => {
    const missing = await hcl(`provider "hosting" {
  base_url = "${sim.baseUrl}"
}
data "hosting_server_firewall" "gone" {
  server_id = "vps_web_9"
}
data "hosting_server" "nobody" {
  name = "no-such-server"
}
`);
    const run = await missing.terraform(['plan', '-input=false', '-no-color']);
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/firewall vps_web_9: reading failed: .*not_found|firewall vps_web_9: reading failed/);
    expect(run.output).toContain('hosting_server: no server of the account is named "no-such-server"');
    // No name is close: the hint says so and where they are all listed, instead of five far ones.
    expect(run.output).toMatch(/none of its \d+ servers is close \(the\s+hosting_servers data source lists them all\)/);

    const scoped = await hcl(`provider "hosting" {
  base_url = "${sim.baseUrl}"
}
data "hosting_firewall_rulesets" "all" {}
`, SERVERS_ONLY_TOKEN);
    const refused = await scoped.terraform(['plan', '-input=false', '-no-color']);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('firewall rule sets: reading failed');
    expect(refused.output).toMatch(/lacks\s+network:read/);
  });
});

/** A simulator and an empty workspace per suite, for the construct suites below; both read after beforeAll. */
function useSimulatorAndWorkspace() {
  const ctx = {} as { sim: RunningSimulator; ws: TerraformWorkspace };
  beforeAll(async () => {
    ctx.sim = await simulatorWithSentinel();
    ctx.ws = new TerraformWorkspace({ HOSTING_API_TOKEN: SENTINEL_TOKEN });
  });
  afterAll(async () => {
    await ctx.sim?.close();
    ctx.ws?.dispose();
  });
  return ctx;
}

/** The read side in constructs: a server selected by name feeds a resource, and the resources' typed getters show what the provider read. */
describeWithTerraform('DataHostingServer and the resources\' read-back getters with the real terraform', () => {
  const t = useSimulatorAndWorkspace();
  const define = (name: string) => (stack: TerraformStack) => {
    const api = new HostingApi(stack, 'hosting', { baseUrl: t.sim.baseUrl });
    const web = new DataHostingServer(stack, 'web', { api, name });
    const fw = new ServerFirewall(stack, 'fw', { api, serverId: web.serverId, enabled: true, rulesetNames: ['web'] });
    const power = new PowerState(stack, 'power', { api, serverId: web.serverId, state: PowerStateValue.RUNNING });
    const ip = new IpSettings(stack, 'ip', { api, serverId: IDS.dedicated, ip: IPS.secondary, description: 'read back' });
    new TerraformOutput(stack, 'server_id', { value: web.serverId });
    new TerraformOutput(stack, 'ipv4', { value: web.ipv4 });
    new TerraformOutput(stack, 'applied', { value: fw.appliedRulesets });
    new TerraformOutput(stack, 'power_read', { value: power.power });
    new TerraformOutput(stack, 'description', { value: ip.description });
    new TerraformOutput(stack, 'layer4', { value: ip.protectionLayer4 });
  };

  test('a server selected by name feeds a firewall, which applies; the getters output what was read', async () => {
    t.ws.synth(define('web-1'));
    expect((await t.ws.init()).code).toBe(0);
    const run = await t.ws.apply();
    expect(run.code).toBe(0);
    expect(t.sim.executed({ serverId: IDS.vpsRunning, kind: 'firewall' }).map((w) => w.detail)).toEqual(['{"enabled":true,"rulesets":[1]}']);
    const out = JSON.parse((await t.ws.terraform(['output', '-json'])).output) as Record<string, { value: unknown }>;
    expect(out.server_id.value).toBe(IDS.vpsRunning);
    expect(out.ipv4.value).toEqual(['198.51.100.11']);
    expect(out.applied.value).toEqual([1]);
    expect(out.power_read.value).toBe('running');
    expect(out.description.value).toBe('read back');
    expect(out.layer4.value).toBe('dynamic');
    expect((await t.ws.plan()).code).toBe(0);
  });

  test('a name that matches no server fails at plan, naming the names there are; nothing is written', async () => {
    t.ws.synth(define('web-99'));
    const before = t.sim.executed().length;
    const plan = await t.ws.plan();
    expect(plan.code).toBe(1);
    expect(plan.output).toContain('hosting_server: no server of the account is named "web-99"');
    expect(plan.output).toMatch(/the closest are\s+"web-1",\s+"web-2"/);
    expect(t.sim.executed()).toHaveLength(before);
  });

  test('a server of the wrong kind is refused at plan, once the name resolves, naming the prop as TypeScript writes it', async () => {
    t.ws.synth(define('metal-1'));
    const plan = await t.ws.plan();
    expect(plan.code).toBe(1);
    expect(plan.output).toContain('invalid serverId: must be a VPS (vps_…): the firewall exists only for virtual servers');
    expect(plan.output).toContain('with hosting_server_firewall.fw_resource');
  });
});

/** Every data source construct, its nested getters included, against the simulator's values. */
describeWithTerraform('the data source constructs with the real terraform', () => {
  const t = useSimulatorAndWorkspace();

  test('typed getters, nested lists and objects included, output what the API serves', async () => {
    t.ws.synth((stack) => {
      const api = new HostingApi(stack, 'hosting', { baseUrl: t.sim.baseUrl, bridge: Bridge.TERRAFORM_DATA });
      const out = (name: string, value: unknown) => new TerraformOutput(stack, name, { value });
      const token = new DataHostingToken(stack, 'token', { api });
      const vps = new DataHostingServers(stack, 'vps', { api, serverType: 'vps', status: 'suspended' });
      const metal = new DataHostingServer(stack, 'metal', { api, name: 'metal-1' });
      const ips = new DataHostingServerIps(stack, 'ips', { api, serverId: metal.serverId });
      const ip = new DataHostingIpSettings(stack, 'ip', { api, serverId: IDS.dedicated, ip: IPS.locked });
      const fw = new DataHostingServerFirewall(stack, 'fw', { api, serverId: IDS.vdsRunning });
      const sets = new DataHostingFirewallRulesets(stack, 'sets', { api });
      const metrics = new DataHostingServerMetrics(stack, 'metrics', { api, serverId: IDS.vpsRunning });
      const rates = new DataHostingServerTraffic(stack, 'rates', { api, serverId: IDS.dedicated });
      const monthly = new DataHostingServerTraffic(stack, 'monthly', { api, serverId: IDS.vpsRunning });
      const ddos = new DataHostingDdos(stack, 'ddos', { api, serverId: IDS.dedicated, ip: IPS.primary });
      const rules = new DataHostingDdosRules(stack, 'rules', { api, serverId: IDS.dedicated, ip: IPS.primary });
      out('account', token.accountId);
      out('scopes', token.scopes);
      out('vps_ids', vps.ids);
      out('first_vps_name', vps.servers.get(0).name);
      out('first_vps_memory', vps.servers.get(0).resources.memoryMb);
      out('metal_cores', metal.resources.cpuCores);
      out('metal_actions', metal.actions);
      out('metal_stale', metal.stale);
      out('second_address', ips.addresses.get(1).address);
      out('locked_rdns_editable', ip.editable.rdns);
      out('locked_layer7', ip.protection.layer7);
      out('vds_rulesets', fw.rulesets);
      out('second_ruleset', sets.rulesets.get(1).name);
      out('memory_used', metrics.memory.usedBytes);
      out('root_mount', metrics.storage.get(0).mount);
      out('rates_kind', rates.kind);
      out('incoming_first', rates.interfaces.get(0).incoming.get(0).mbps);
      out('outgoing_total', rates.totals.outgoingGb);
      out('october_rx', monthly.months.get(0).rxBytes);
      out('peak', ddos.incidents.get(0).peak);
      out('attack_types', ddos.incidents.get(0).attackTypes);
      out('third_rule_port', rules.rules.get(2).port);
    });
    expect((await t.ws.init()).code).toBe(0);
    const run = await t.ws.apply();
    expect(run.code).toBe(0);
    const out = Object.fromEntries(Object.entries(JSON.parse((await t.ws.terraform(['output', '-json'])).output) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]));
    expect(out).toEqual({
      account: 4711,
      scopes: expect.arrayContaining(['servers:read', 'servers:power', 'servers:control', 'network:read', 'network:write']),
      // A status that does not change with time (the provisioning server turns active after 1.5 s).
      vps_ids: [IDS.vpsSuspended],
      first_vps_name: 'unpaid-6',
      first_vps_memory: 4096,
      metal_cores: 32,
      metal_actions: expect.arrayContaining(['reboot']),
      metal_stale: false,
      second_address: IPS.secondary,
      locked_rdns_editable: false,
      locked_layer7: 'off',
      vds_rulesets: [2, 4],
      second_ruleset: 'ssh',
      memory_used: 1_288_490_188,
      root_mount: '/',
      rates_kind: 'rates',
      incoming_first: 120.5,
      outgoing_total: 1_024.25,
      october_rx: 120e9,
      peak: '18.4 Gbps',
      attack_types: ['udp_flood', 'syn_flood'],
      third_rule_port: 53,
    });
    expect(t.sim.executed()).toEqual([]);
  });
});
