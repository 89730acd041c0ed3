import type { CtyType, Schema, WireAttribute } from './schema';

/*
 * The provider's documentation in the Terraform registry's layout (docs/index.md,
 * docs/resources/<name>.md, docs/data-sources/<name>.md, docs/list-resources/<name>.md,
 * docs/actions/<name>.md), generated from the schema the provider
 * serves: every attribute and nested member, its type, whether it is required, optional or
 * computed, whether it forces replacement, and its description. Pure: the caller reads the examples and writes the files.
 */

export interface DocumentedType {
  readonly typeName: string;
  readonly schema: Schema;
  /** Resources only. */
  readonly replacedBy?: readonly string[];
  readonly importIdExample?: string;
  /** Resources and list resources (Terraform 1.12+): the identity attributes, in import id order. */
  readonly identity?: ReadonlyArray<{ readonly name: string; readonly description: string }>;
}

export interface DocsInput {
  readonly provider: Schema;
  readonly resources: readonly DocumentedType[];
  readonly dataSources: readonly DocumentedType[];
  /** Terraform 1.14+: the list resources of `terraform query`, and the actions. */
  readonly listResources: readonly DocumentedType[];
  readonly actions: readonly DocumentedType[];
  /** The example file for a path under examples/hcl (e.g. `resources/hosting_server_firewall/resource.tf`), or undefined. */
  readonly example: (path: string) => string | undefined;
  /** What `index.md` says besides the schema: installation, authentication, limits. */
  readonly providerGuide: string;
}

export interface DocPage {
  /** Below docs/. */
  readonly path: string;
  readonly text: string;
}

/** A type as HCL users write type constraints: `list(object({ id = number, name = string }))`. */
export function typeExpression(type: CtyType): string {
  if (typeof type === 'string') return type;
  const [kind, inner] = type;
  if (kind === 'object') return `object({ ${Object.entries(inner as Record<string, CtyType>).map(([k, v]) => `${k} = ${typeExpression(v)}`).join(', ')} })`;
  return `${kind}(${typeExpression(inner as CtyType)})`;
}

/** How an attribute's type reads in the docs: a nested object shows its shape; its members have a section below. */
function typeOf(a: WireAttribute): string {
  if (a.nested_type) return a.nested_type.nesting === LIST_NESTING ? 'list(object)' : 'object';
  return typeExpression(JSON.parse(String(a.type)) as CtyType);
}
const LIST_NESTING = 2;

const anchor = (path: string) => `nestedatt--${path.replace(/\./g, '--')}`;

function line(a: WireAttribute, path: string, replacedBy: readonly string[] = []): string {
  const flags = [a.required ? 'Required' : a.optional ? 'Optional' : undefined, a.computed && !a.required ? 'Computed' : undefined, replacedBy.includes(a.name) ? 'Forces replacement' : undefined, a.deprecated ? 'Deprecated' : undefined];
  const below = a.nested_type ? ` (see [below for nested schema](#${anchor(path)}))` : '';
  return `- \`${a.name}\` (\`${typeOf(a)}\`; ${flags.filter(Boolean).join(', ')}) ${a.description}${below}`;
}

const GROUPS = [
  ['Required', (a: WireAttribute) => a.required],
  ['Optional', (a: WireAttribute) => a.optional],
  ['Read-Only', (a: WireAttribute) => !a.required && !a.optional],
] as const;

/** A section per nested object, the way the registry's generated docs lay them out: members grouped by how they are set. */
function nestedSections(attributes: readonly WireAttribute[], parent?: string): string[] {
  return attributes.flatMap((a) => {
    if (!a.nested_type) return [];
    const path = parent ? `${parent}.${a.name}` : a.name;
    const members = a.nested_type.attributes;
    const groups = GROUPS.flatMap(([title, selects]) => {
      const selected = members.filter(selects);
      return selected.length ? [`${title}:`, '', ...selected.map((m) => line(m, `${path}.${m.name}`)), ''] : [];
    });
    return [`<a id="${anchor(path)}"></a>`, '', `### Nested Schema for \`${path}\``, '', ...groups, ...nestedSections(members, path)];
  });
}

function frontmatter(title: string, description: string, subcategory = ''): string {
  return ['---', `page_title: "${title}"`, `subcategory: "${subcategory}"`, 'description: |-', ...description.split('\n').map((l) => `  ${l}`), '---', ''].join('\n');
}

/** Before a block that is part of a configuration, not all of it: the docs tests check it as syntax only. */
const FRAGMENT = '<!-- docs-test: fragment -->';
const fenced = (language: string, text: string) => `\`\`\`${language}\n${text.trimEnd()}\n\`\`\``;

function examplePart(input: DocsInput, path: string): string[] {
  const text = input.example(path);
  if (!text) throw new Error(`the docs need the example examples/hcl/${path}; write it (it is applied against the simulator by the tests)`);
  return ['## Example Usage', '', fenced('terraform', text), ''];
}

type Kind = 'resource' | 'data-source' | 'list-resource' | 'action';

/** Per kind: the page title, the docs/ and examples/hcl/ folder, and the example's file name. */
const KINDS: Record<Kind, { readonly title: string; readonly folder: string; readonly example: string }> = {
  'resource': { title: 'Resource', folder: 'resources', example: 'resource.tf' },
  'data-source': { title: 'Data Source', folder: 'data-sources', example: 'data-source.tf' },
  'list-resource': { title: 'List Resource', folder: 'list-resources', example: 'list-resource.tfquery.hcl' },
  'action': { title: 'Action', folder: 'actions', example: 'action.tf' },
};

function typePage(input: DocsInput, kind: Kind, type: DocumentedType): DocPage {
  const { title, folder, example } = KINDS[kind];
  const attributes = type.schema.block.attributes;
  const args = attributes.filter((a) => a.required || a.optional);
  const computed = attributes.filter((a) => !a.required && !a.optional);
  const parts = [
    frontmatter(`${type.typeName} ${title} - hosting`, type.schema.block.description),
    `# ${type.typeName} (${title})`,
    '',
    type.schema.block.description,
    '',
    ...examplePart(input, `${folder}/${type.typeName}/${example}`),
    ...(kind === 'list-resource' || kind === 'action' ? configPart(kind, args) : argumentParts(kind, type, args, computed)),
    ...nestedSections(attributes),
    ...(kind === 'list-resource' ? identityPart(type, 'Each object found is named by its identity, which the `import` blocks of `-generate-config-out` use:') : []),
    ...(kind === 'resource' ? importPart(type) : []),
  ];
  return { path: `${folder}/${type.typeName.replace(/^hosting_/, '')}.md`, text: parts.join('\n') };
}

function argumentParts(kind: Kind, type: DocumentedType, args: readonly WireAttribute[], computed: readonly WireAttribute[]): string[] {
  return [
    '## Argument Reference',
    '',
    ...(args.length ? args.map((a) => line(a, a.name, type.replacedBy)) : [`This ${kind === 'resource' ? 'resource' : 'data source'} takes no arguments.`]),
    '',
    '## Attribute Reference',
    '',
    ...(computed.length ? computed.map((a) => line(a, a.name)) : ['Only the arguments.']),
    '',
  ];
}

/** Where each of the newer kinds is written, and the Terraform it needs. */
const NEWER_KIND_NOTE: Partial<Record<Kind, string>> = {
  'list-resource': '`list` blocks live in `*.tfquery.hcl` files, beside the configuration, and run with `terraform query` (Terraform 1.14 or newer); `-generate-config-out=FILE` writes a resource and an `import` block for each object found.',
  'action': '`action` blocks live in the configuration (`*.tf`) and need Terraform 1.14 or newer; run one with `terraform apply -invoke=action.<type>.<name>`, or from a resource\'s `lifecycle { action_trigger { … } }`.',
};

/** List resources and actions take their arguments in a `config` block. */
function configPart(kind: Kind, args: readonly WireAttribute[]): string[] {
  return [
    '## Configuration',
    '',
    ...(NEWER_KIND_NOTE[kind] ? [NEWER_KIND_NOTE[kind], ''] : []),
    `Arguments of the ${kind === 'action' ? 'action' : 'list'} block's \`config\` block:`,
    '',
    ...(args.length ? args.map((a) => line(a, a.name)) : ['None.']),
    '',
  ];
}

function identityPart(type: DocumentedType, intro: string): string[] {
  if (!type.identity?.length) return [];
  return ['## Identity', '', intro, '', ...type.identity.map((a) => `- \`${a.name}\` (\`string\`) ${a.description}`), ''];
}

function importPart(type: DocumentedType): string[] {
  if (!type.importIdExample) return [];
  const width = Math.max(0, ...(type.identity ?? []).map((a) => a.name.length));
  // Aligned as terraform fmt writes it.
  const identity = (type.identity ?? []).map((a, i) => `    ${a.name.padEnd(width)} = "${type.importIdExample!.split('/')[i]}"`);
  return [
    '## Import',
    '',
    `The import id is \`${type.importIdExample}\` in shape. With the command:`,
    '',
    fenced('shell', `terraform import ${type.typeName}.example ${type.importIdExample}`),
    '',
    'Or with an `import` block (Terraform 1.5+); the next plan imports the settings as they are and shows the in-place changes:',
    '',
    FRAGMENT,
    fenced('terraform', `import {\n  to = ${type.typeName}.example\n  id = "${type.importIdExample}"\n}`),
    '',
    ...(identity.length ? [
      'Terraform 1.12+ also imports by the resource\'s identity, which `terraform show -json` shows for every managed instance:',
      '',
      FRAGMENT,
      fenced('terraform', `import {\n  to = ${type.typeName}.example\n  identity = {\n${identity.join('\n')}\n  }\n}`),
      '',
      ...identityPart(type, 'Identity attributes:'),
    ] : []),
  ];
}

function indexPage(input: DocsInput): DocPage {
  const attributes = input.provider.block.attributes;
  return {
    path: 'index.md',
    text: [
      frontmatter('Provider: hosting', input.provider.block.description),
      '# hosting Provider',
      '',
      input.provider.block.description,
      '',
      // Installation first: an HCL reader's first question is how Terraform gets the provider.
      input.providerGuide.trim(),
      '',
      ...examplePart(input, 'provider/provider.tf'),
      '## Schema',
      '',
      ...attributes.map((a) => line(a, a.name)),
      '',
    ].join('\n'),
  };
}

/** Every page, in a fixed order, so the same schema always gives the same files. */
export function providerDocs(input: DocsInput): DocPage[] {
  const byName = (a: DocumentedType, b: DocumentedType) => a.typeName.localeCompare(b.typeName);
  return [
    indexPage(input),
    ...[...input.resources].sort(byName).map((r) => typePage(input, 'resource', r)),
    ...[...input.dataSources].sort(byName).map((d) => typePage(input, 'data-source', d)),
    ...[...input.listResources].sort(byName).map((l) => typePage(input, 'list-resource', l)),
    ...[...input.actions].sort(byName).map((a) => typePage(input, 'action', a)),
  ];
}
