import typesBeforeNested from './state-types-before-nested.json';
import { ACCESS_ROLES, LAYER4_MODES, LAYER7_MODES, OPERATION_STATUSES, POWER_VALUES, SERVER_STATUSES, SERVER_TYPES } from '../../src/api/schemas';
import { DATA_SOURCES } from '../../src/provider/data-sources';
import { providerDocs } from '../../src/provider/docs';
import { documentedTypes } from '../../src/provider/documented';
import { RESOURCES } from '../../src/provider/resources';
import type { CtyType, Schema, WireAttribute } from '../../src/provider/schema';

/** Terraform's rule (configschema.Object.ImpliedType): a nested attribute's value is an object, or a list of them. */
function impliedType(a: WireAttribute): CtyType {
  if (!a.nested_type) return JSON.parse(String(a.type)) as CtyType;
  const object: CtyType = ['object', Object.fromEntries(a.nested_type.attributes.map((m) => [m.name, impliedType(m)]))];
  return a.nested_type.nesting === 2 ? ['list', object] : object;
}

const typed = [
  ...[...RESOURCES.values()].map((r) => [`resource.${r.typeName}`, r.schema] as const),
  ...[...DATA_SOURCES.values()].map((d) => [`data.${d.typeName}`, d.schema] as const),
];

/** Every attribute and nested member, with its dotted path. */
function everyMember(attributes: readonly WireAttribute[], parent = ''): Array<[string, WireAttribute]> {
  return attributes.flatMap((a) => {
    const path = `${parent}${a.name}`;
    return [[path, a] as [string, WireAttribute], ...(a.nested_type ? everyMember(a.nested_type.attributes, `${path}.`) : [])];
  });
}
const membersOf = (schema: Schema) => new Map(everyMember(schema.block.attributes));

/** Attributes added since: never required, so a state written before them reads with null there (UpgradeResourceState). */
const ADDED_SINCE: Record<string, readonly string[]> = {
  'resource.hosting_server_firewall': ['expect_takeover', 'changed_since_plan'],
  'resource.hosting_ip_settings': ['expect_takeover', 'changed_since_plan'],
  'resource.hosting_power_state': ['expect_takeover', 'reboot_generation', 'life_id'],
};

test.each(typed)('%s keeps the value types of earlier versions, so their state reads unchanged', (name, schema) => {
  const added = ADDED_SINCE[name] ?? [];
  const kept = schema.block.attributes.filter((a) => !added.includes(a.name));
  expect(Object.fromEntries(kept.map((a) => [a.name, impliedType(a)]))).toEqual((typesBeforeNested as Record<string, unknown>)[name]);
  expect(schema.block.attributes.filter((a) => added.includes(a.name)).every((a) => !a.required)).toBe(true);
});

test.each(typed)('%s describes every attribute and every nested member', (_name, schema) => {
  for (const [path, member] of membersOf(schema)) {
    expect([path, member.description.length > 8]).toEqual([path, true]);
    expect([path, member.description]).not.toEqual([path, expect.stringMatching(/as the API reports it\.$/)]);
  }
});

test('nested members name the values an enumerated member takes, from the API\'s own lists', () => {
  const servers = membersOf(DATA_SOURCES.get('hosting_servers')!.schema);
  const server = membersOf(DATA_SOURCES.get('hosting_server')!.schema);
  const ipSettings = membersOf(RESOURCES.get('hosting_ip_settings')!.schema);
  const cases: Array<[WireAttribute | undefined, readonly string[]]> = [
    [servers.get('servers.type'), SERVER_TYPES],
    [servers.get('servers.status'), SERVER_STATUSES],
    [servers.get('servers.power'), POWER_VALUES],
    [servers.get('servers.access_role'), ACCESS_ROLES],
    [server.get('current_operation.status'), OPERATION_STATUSES],
    [ipSettings.get('protection.layer4'), LAYER4_MODES],
    [ipSettings.get('protection.layer7'), LAYER7_MODES],
  ];
  for (const [member, values] of cases) for (const value of values) expect(member?.description).toContain(`\`${value}\``);
});

test('the resource\'s protection is set whole: both layers are required inside it, as the API sets them together', () => {
  const protection = membersOf(RESOURCES.get('hosting_ip_settings')!.schema);
  expect([protection.get('protection')?.optional, protection.get('protection.layer4')?.required, protection.get('protection.layer7')?.required]).toEqual([true, true, true]);
});

test('the docs give each nested object a section, members grouped the way the registry shows them', () => {
  const pages = providerDocs({ ...documentedTypes(), example: () => 'example', providerGuide: '' });
  const traffic = pages.find((p) => p.path === 'data-sources/server_traffic.md')!.text;
  expect(traffic).toContain('- `interfaces` (`list(object)`; Computed) Per interface, incoming and outgoing rates in Mbps (rates). (see [below for nested schema](#nestedatt--interfaces))');
  expect(traffic).toContain('<a id="nestedatt--interfaces--incoming"></a>\n\n### Nested Schema for `interfaces.incoming`\n\nRead-Only:\n\n- `time` (`string`; Computed) The sample time (ISO 8601).');
  const ipSettings = pages.find((p) => p.path === 'resources/ip_settings.md')!.text;
  expect(ipSettings).toContain('### Nested Schema for `protection`\n\nRequired:\n\n- `layer4` (`string`; Required)');
  for (const [name, schema] of typed) {
    const page = pages.find((p) => p.path === `${name.startsWith('data.') ? 'data-sources' : 'resources'}/${name.replace(/^\w+\.hosting_/, '')}.md`)!.text;
    for (const [path, member] of membersOf(schema)) {
      const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : undefined;
      if (parent) expect(page).toContain(`### Nested Schema for \`${parent}\``);
      expect(page).toContain(`- \`${member.name}\` (`);
    }
  }
});
