import type { Server } from '../../src/api/schemas';
import { runnableProject } from '../../src/cli/adopt-command';
import { adoptionOf, render, type AccountSnapshot } from '../../src/cli/adopt-render';
import { hclString, quotedString } from '../../src/cli/code-literals';

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
    server(DED, 'metal', { ipv4: ['203.0.113.10', '203.0.113.11'] }),
    server('vps_d_4', 'partner', { accessRole: 'secondary' }),
    server('vps_b_2', 'web-1'),
    server('vps_a_1', 'Web 1'),
    server('vps_c_3', '9lives', { power: 'unknown' }),
    server('vps_e_5', 'new', { status: 'provisioning', power: 'stopped' }),
    server('vps_f_6', 'flaky'),
  ],
  readFailures: new Map([['vps_f_6', 'read firewall vps_f_6 failed; API: 503 temporarily_unavailable']]),
  firewalls: new Map([['vps_a_1', { enabled: true, rulesets: [3, 1] }], ['vps_b_2', { enabled: false, rulesets: [] }], ['vps_c_3', { enabled: true, rulesets: [] }]]),
  addresses: new Map([[DED, [
    { address: '203.0.113.10', rdns: 'metal.example.com', description: 'costs ${5} a %{month}', protection: { layer4: 'dynamic', layer7: 'off' }, editable: { rdns: true, description: true, protection: true } },
    { address: '203.0.113.11', rdns: null, description: null, protection: null, editable: { rdns: true, description: true, protection: true } },
  ]]]),
};

describe('adopt, the pure part', () => {
  const adoption = adoptionOf(account);

  test('in server id order, names come from the servers, made unique and valid; shared servers, unknown or transient power and empty addresses are listed, not managed; failed reads are listed apart', () => {
    expect(adoption.resources.map((r) => r.name)).toEqual([
      'metal_ip_203_0_113_10', 'metal_power', 'web_1_firewall', 'web_1_power', 'web_1_firewall_2', 'web_1_power_2', 's_9lives_firewall',
    ]);
    expect(adoption.notManaged).toEqual([
      `${DED} 203.0.113.11: no rDNS, description or protection set, so nothing to adopt`,
      'vps_c_3 ("9lives"): its power state is unknown, so it is not adopted',
      'vps_d_4 ("partner"): shared with this account, read-only for it',
      'vps_e_5 ("new"): its status is provisioning, so its power is not adopted',
    ]);
    expect(adoption.skipped).toEqual(['vps_f_6 ("flaky"): read firewall vps_f_6 failed; API: 503 temporarily_unavailable']);
    expect(render('hcl', adoption, {})).toContain('# NOT ADOPTED, a read failed (run adopt again to include them):\n#   vps_f_6 ("flaky"): read firewall');
  });

  test('HCL keeps template characters literal, sorts rule sets, and imports each resource by its documented id', () => {
    const hcl = render('hcl', adoption, { baseUrl: 'https://api.example.com/api/v1' });
    expect(hcl).toContain('description = "costs $${5} a %%{month}"');
    expect(hcl).toContain('rulesets  = [1, 3]');
    expect(hcl).toContain(`import {\n  to = hosting_ip_settings.metal_ip_203_0_113_10\n  id = "${DED}/203.0.113.10"\n}`);
    expect(hcl).toContain('provider "hosting" {\n  base_url = "https://api.example.com/api/v1"\n}');
  });

  test('HCL names the provider as a team commits it: the source and constraint given, no address unless asked', () => {
    expect(render('hcl', adoption, { source: 'registry.example.com/platform/hosting', version: '~> 1.4' }))
      .toContain('terraform {\n  required_providers {\n    hosting = {\n      source  = "registry.example.com/platform/hosting"\n      version = "~> 1.4"\n    }\n  }\n}\n\nprovider "hosting" {}\n');
    expect(render('hcl', adoption, {})).toContain('      source = "local.cdktf-server-hosting.invalid/cdktf-server-hosting/hosting"\n    }');
    expect(render('typescript', adoption, {})).toContain("new HostingApi(this, 'hosting');");
    expect(render('python', adoption, { baseUrl: 'https://api.example.com/api/v1' })).toContain('base_url="https://api.example.com/api/v1"');
  });

  test('the same account gives the same text, in every language', () => {
    for (const language of ['hcl', 'typescript', 'python'] as const) {
      expect(render(language, adoptionOf(account), {})).toBe(render(language, adoption, {}));
    }
    // The constructs keep a plain string literal themselves, so TypeScript and Python carry the text as it is.
    expect(render('typescript', adoption, {})).toContain('description: "costs ${5} a %{month}",');
    expect(render('python', adoption, { tokenEnvVar: 'STAGING_TOKEN' })).toContain('api = HostingApi(self, "hosting", token_env_var="STAGING_TOKEN")');
    const terrain = render('typescript', adoption, { cdk: 'cdktn' });
    expect(terrain).toContain("import { App, TerraformStack } from 'cdktn';");
    expect(terrain).toContain("} from 'cdktn-server-hosting';");
    expect(terrain).toMatch(/^\/\/ Written by `cdktn-server-hosting adopt`/);
  });
});

describe('text from the API never leaves its literal or comment in generated code', () => {
  const hostile = [
    'web"; require("fs").writeFileSync("/tmp/pwned", "x"); //',
    'a\nimport os; os.system("touch /tmp/pwned")',
    'b\r\nresource "terraform_data" "x" {}',
    'c\u2028require("child_process")',
    'd */ ` ${file("~/.ssh/id_rsa")} %{ if true }x%{ endif } \\ \' \b\f\v\u0000\u0085 \u202e',
    '\ud800 lone',
  ];

  test('one line each, escaped as each language reads it', () => {
    for (const text of hostile) {
      for (const literal of [hclString(text), quotedString(text)]) {
        expect(literal).not.toMatch(/[\n\r\u2028\u2029\u0085\u202e\u0000]/);
        expect(literal).toMatch(/^"(?:[^"\\]|\\.)*"$/);
      }
      // TypeScript reads the literal back as the text itself (JSON's syntax is a subset of it here).
      expect(JSON.parse(quotedString(text))).toBe(text.replace(/\ud800/, '\ufffd'));
    }
    expect(hclString('x\b\f')).toBe('"x\\u0008\\u000c"');
    expect(hclString('${a} %{b} $${c}')).toBe('"$${a} %%{b} $$${c}"');
  });

  test('a hostile account renders programs whose only statements are the generated ones', () => {
    const names = hostile.map((name, i) => server(`vps_h_${i + 1}`, name));
    const shared = server('vps_s_9', 'x\nimport os', { accessRole: 'secondary' });
    const evil: AccountSnapshot = {
      servers: [...names, shared],
      firewalls: new Map(names.map((s) => [s.id, { enabled: true, rulesets: [] }])),
      addresses: new Map(),
      readFailures: new Map(),
    };
    for (const language of ['hcl', 'typescript', 'python'] as const) {
      const program = render(language, adoptionOf(evil), {});
      // Names reach identifiers only as letters, digits and underscores, so code can stand only in comments.
      const lines = program.split(/\r\n|[\n\r\u2028\u2029\u0085]/);
      expect(lines.filter((l) => /require\(|system\(|"terraform_data"|^import os/.test(l)).every((l) => /^\s*(#|\/\/)/.test(l))).toBe(true);
    }
  });
});

test('a TypeScript or Python program comes with how to make it a project the CDK plans', () => {
  expect(runnableProject('typescript', 'adopted.ts', 'cdktf')).toBe('to run it as a project: in its folder, npm install cdktf-server-hosting cdktf@^0.21 constructs@^10.4 ts-node@^10.9 typescript@~5.9; '
    + 'write tsconfig.json as {"compilerOptions": {"module": "commonjs", "target": "ES2022", "strict": true, "skipLibCheck": true}}; '
    + 'write cdktf.json as {"language": "typescript", "app": "npx ts-node adopted.ts"}; then plan with the cdktf CLI (docs/guides/adopting-an-account.md)');
  expect(runnableProject('python', undefined, 'cdktn')).toContain('pip install cdktn-server-hosting; write cdktf.json as {"language": "python", "app": "python3 main.py"}');
});
