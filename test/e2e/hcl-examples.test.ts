import { copyFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ACTIONS } from '../../src/provider/actions';
import { DATA_SOURCES } from '../../src/provider/data-sources';
import { providerDocs } from '../../src/provider/docs';
import { documentedTypes } from '../../src/provider/documented';
import { LIST_RESOURCES } from '../../src/provider/list-resources';
import { RESOURCES } from '../../src/provider/resources';
import type { RunningSimulator } from '../../src/simulator';
import { filesBelow } from '../helpers/files';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, DOCS_REGISTRY_SOURCE, TerraformWorkspace } from '../helpers/terraform';

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'hcl');

const short = (t: string) => t.replace(/^hosting_/, '');

test('the docs have a page for every resource, data source, list resource and action the provider serves, each attribute on it, and an example each', () => {
  const types = documentedTypes();
  const pages = providerDocs({ ...types, example: () => 'example', providerGuide: '' });
  expect(pages.map((p) => p.path)).toEqual([
    'index.md',
    ...[...RESOURCES.keys()].sort().map((t) => `resources/${short(t)}.md`),
    ...[...DATA_SOURCES.keys()].sort().map((t) => `data-sources/${short(t)}.md`),
    ...[...LIST_RESOURCES.keys()].sort().map((t) => `list-resources/${short(t)}.md`),
    ...[...ACTIONS.keys()].sort().map((t) => `actions/${short(t)}.md`),
  ]);
  const typed = [
    ...types.resources.map((t) => [t, 'Resource'] as const),
    ...types.dataSources.map((t) => [t, 'Data Source'] as const),
    ...types.listResources.map((t) => [t, 'List Resource'] as const),
    ...types.actions.map((t) => [t, 'Action'] as const),
  ];
  for (const [type, title] of typed) {
    const page = pages.find((p) => p.text.includes(`# ${type.typeName} (${title})`))!;
    for (const attribute of type.schema.block.attributes) expect(page.text).toContain(`- \`${attribute.name}\` (`);
  }
  expect(pages.find((p) => p.path === 'resources/ip_settings.md')!.text).toContain('- `ip` (`string`; Required, Forces replacement)');
  const examples = filesBelow(EXAMPLES).map((f) => relative(EXAMPLES, f)).sort();
  expect(examples).toEqual([
    'provider/provider.tf',
    ...[...DATA_SOURCES.keys()].map((t) => `data-sources/${t}/data-source.tf`),
    ...[...RESOURCES.keys()].map((t) => `resources/${t}/resource.tf`),
    ...[...LIST_RESOURCES.keys()].map((t) => `list-resources/${t}/list-resource.tfquery.hcl`),
    ...[...ACTIONS.keys()].map((t) => `actions/${t}/action.tf`),
  ].sort());
  expect(pages.find((p) => p.path === 'resources/ip_settings.md')!.text).toContain('identity = {\n    server_id = "ded_6f1c2a9e-0b7d-4e55-9a43-1c2d3e4f5a6b"\n    ip        = "203.0.113.10"\n  }');
});

/** Every example the docs show is applied against the simulator: provider from `provider mirror`, apply, a clean plan. */
describeWithTerraform('the HCL examples of the docs apply', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
    ws = new TerraformWorkspace(env);
    ws.writeHcl(env, '', ['--source', DOCS_REGISTRY_SOURCE]);
    // The examples bring their own required_providers (provider.tf): only the mirror's CLI configuration is kept.
    rmSync(join(ws.stackDir, 'main.tf'));
    // Actions and list resources need Terraform 1.14+: test/newer-terraform/ applies the examples with those.
    const examples = filesBelow(EXAMPLES).filter((file) => !/^(actions|list-resources)\//.test(relative(EXAMPLES, file)));
    for (const file of examples) copyFileSync(file, join(ws.stackDir, relative(EXAMPLES, file).replace(/\//g, '--')));
  });
  afterAll(async () => {
    await sim?.close();
    ws?.dispose();
  });

  test('init, apply and a clean plan', async () => {
    expect((await ws.init()).code).toBe(0);
    const vars = ['-var', `hosting_api_url=${sim.baseUrl}`];
    const run = await ws.apply(...vars);
    expect(run.output).toContain('Apply complete! Resources: 3 added, 0 changed, 0 destroyed.');
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/applied_rulesets = toset\(\[\s*1,\s*2,\s*\]\)/);
    expect(run.output).toMatch(/metal_incident_peaks = \[\s*"18\.4 Gbps",\s*\]/);
    const plan = await ws.terraform(['plan', '-input=false', '-no-color', '-detailed-exitcode', ...vars]);
    expect(plan.output).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  test('terraform reads every nested member\'s description from the schema the provider serves', async () => {
    const run = await ws.terraform(['providers', 'schema', '-json']);
    expect(run.code).toBe(0);
    const schemas = Object.values(JSON.parse(run.output).provider_schemas as Record<string, any>)[0];
    const servers = schemas.data_source_schemas.hosting_servers.block.attributes.servers;
    expect(servers.nested_type.nesting_mode).toBe('list');
    expect(servers.nested_type.attributes.access_role.description).toContain('`secondary` ones are shared with it');
    expect(servers.nested_type.attributes.resources.nested_type.attributes.traffic_gb.description).toContain('null when unmetered');
    const protection = schemas.resource_schemas.hosting_ip_settings.block.attributes.protection;
    expect([protection.optional, protection.nested_type.attributes.layer4.required]).toEqual([true, true]);
  });
});
