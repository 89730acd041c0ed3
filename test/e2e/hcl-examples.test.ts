import { copyFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROVIDER_SCHEMA } from '../../src/provider/configure';
import { DATA_SOURCES } from '../../src/provider/data-sources';
import { providerDocs } from '../../src/provider/docs';
import { RESOURCES } from '../../src/provider/resource-rpcs';
import type { RunningSimulator } from '../../src/simulator';
import { SENTINEL_TOKEN } from '../helpers/mock-api';
import { simulatorWithSentinel } from '../helpers/simulator';
import { describeWithTerraform, TerraformWorkspace } from '../helpers/terraform';

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'hcl');
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));

test('the docs have a page for every resource and data source the provider serves, each attribute on it, and an example each', () => {
  const pages = providerDocs({ provider: PROVIDER_SCHEMA, resources: [...RESOURCES.values()], dataSources: [...DATA_SOURCES.values()], example: () => 'example', providerGuide: '' });
  expect(pages.map((p) => p.path)).toEqual([
    'index.md',
    ...[...RESOURCES.keys()].sort().map((t) => `resources/${t.replace(/^hosting_/, '')}.md`),
    ...[...DATA_SOURCES.keys()].sort().map((t) => `data-sources/${t.replace(/^hosting_/, '')}.md`),
  ]);
  const typed = [...[...RESOURCES.values()].map((t) => [t, 'Resource'] as const), ...[...DATA_SOURCES.values()].map((t) => [t, 'Data Source'] as const)];
  for (const [type, title] of typed) {
    const page = pages.find((p) => p.text.includes(`# ${type.typeName} (${title})`))!;
    for (const attribute of type.schema.block.attributes) expect(page.text).toContain(`- \`${attribute.name}\` (`);
  }
  expect(pages.find((p) => p.path === 'resources/ip_settings.md')!.text).toContain('- `ip` (`string`; Required, Forces replacement)');
  const examples = files(EXAMPLES).map((f) => relative(EXAMPLES, f)).sort();
  expect(examples).toEqual(['provider/provider.tf', ...[...DATA_SOURCES.keys()].map((t) => `data-sources/${t}/data-source.tf`), ...[...RESOURCES.keys()].map((t) => `resources/${t}/resource.tf`)].sort());
});

/** Every example the docs show is applied against the simulator: provider from `provider mirror`, apply, a clean plan. */
describeWithTerraform('the HCL examples of the docs apply', () => {
  let sim: RunningSimulator;
  let ws: TerraformWorkspace;
  beforeAll(async () => {
    sim = await simulatorWithSentinel();
    const env: Record<string, string> = { HOSTING_API_TOKEN: SENTINEL_TOKEN };
    ws = new TerraformWorkspace(env);
    ws.writeHcl(env, '');
    // The examples bring their own required_providers (provider.tf): only the mirror's CLI configuration is kept.
    rmSync(join(ws.stackDir, 'main.tf'));
    for (const file of files(EXAMPLES)) copyFileSync(file, join(ws.stackDir, relative(EXAMPLES, file).replace(/\//g, '--')));
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
