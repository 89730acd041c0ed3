import type { Server } from '../../src/api/schemas';
import { adoptionOf, render, type AccountSnapshot } from '../../src/cli/adopt-render';

const server = (id: string, name: string, over: Partial<Server> = {}): Server => ({
  id,
  name,
  type: id.startsWith('ded_') ? 'dedicated' : 'vps',
  hostname: null,
  status: 'active',
  power: 'running',
  ipv4: [],
  ipv6: [],
  os: null,
  resources: { cpuCores: 1, memoryMb: 1024, storageGb: 10, trafficGb: null },
  accessRole: 'primary',
  serviceId: null,
  createdAt: null,
  ...over,
});
const DED = 'ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b';

const account: AccountSnapshot = {
  servers: [
    server('vps_a_1', 'Web 1'),
    server('vps_b_2', 'web-1'),
    server('vps_c_3', '9lives', { power: 'unknown' }),
    server('vps_d_4', 'partner', { accessRole: 'secondary' }),
    server(DED, 'metal', { ipv4: ['203.0.113.10', '203.0.113.11'] }),
  ],
  firewalls: new Map([['vps_a_1', { enabled: true, rulesets: [3, 1] }], ['vps_b_2', { enabled: false, rulesets: [] }], ['vps_c_3', { enabled: true, rulesets: [] }]]),
  addresses: new Map([[DED, [
    { address: '203.0.113.10', rdns: 'metal.example.com', description: 'costs ${5} a %{month}', protection: { layer4: 'dynamic', layer7: 'off' }, editable: { rdns: true, description: true, protection: true } },
    { address: '203.0.113.11', rdns: null, description: null, protection: null, editable: { rdns: true, description: true, protection: true } },
  ]]]),
};

describe('adopt, the pure part', () => {
  const adoption = adoptionOf(account);

  test('names come from the servers, made unique and valid; shared servers, unknown power and empty addresses are listed, not managed', () => {
    expect(adoption.resources.map((r) => r.name)).toEqual([
      'web-1-firewall', 'web-1-power', 'web-1-firewall-2', 'web-1-power-2', 's-9lives-firewall', 'metal-ip-203-0-113-10', 'metal-power',
    ]);
    expect(adoption.notManaged).toEqual([
      'vps_c_3 ("9lives"): its power state is unknown, so it is not adopted',
      'vps_d_4 ("partner"): shared with this account, read-only for it',
      `${DED} 203.0.113.11: no rDNS, description or protection set, so nothing to adopt`,
    ]);
  });

  test('HCL keeps template characters literal, sorts rule sets, and imports each resource by its documented id', () => {
    const hcl = render('hcl', adoption, { baseUrl: 'https://api.example.com/api/v1' });
    expect(hcl).toContain('description = "costs $${5} a %%{month}"');
    expect(hcl).toContain('rulesets  = [1, 3]');
    expect(hcl).toContain(`import {\n  to = hosting_ip_settings.metal-ip-203-0-113-10\n  id = "${DED}/203.0.113.10"\n}`);
    expect(hcl).toContain('provider "hosting" {\n  base_url = "https://api.example.com/api/v1"\n}');
  });

  test('the same account gives the same text, in every language', () => {
    for (const language of ['hcl', 'typescript', 'python'] as const) {
      expect(render(language, adoptionOf(account), {})).toBe(render(language, adoption, {}));
    }
    expect(render('typescript', adoption, {})).toContain("description: 'costs ${5} a %{month}',");
    expect(render('python', adoption, { tokenEnvVar: 'STAGING_TOKEN' })).toContain('api = HostingApi(self, "hosting", token_env_var="STAGING_TOKEN")');
    const terrain = render('typescript', adoption, { packages: { cdk: 'cdktn', library: 'cdktn-server-hosting' } });
    expect(terrain).toContain("import { App, TerraformStack } from 'cdktn';");
    expect(terrain).toContain("} from 'cdktn-server-hosting';");
  });
});
