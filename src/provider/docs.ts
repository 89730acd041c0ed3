import type { CtyType, Schema } from './schema';

/*
 * The provider's documentation in the Terraform registry's layout (docs/index.md,
 * docs/resources/<name>.md, docs/data-sources/<name>.md), generated from the schema the provider
 * serves: every attribute, its type, whether it is required, optional or computed, whether it
 * forces replacement, and its description. Pure: the caller reads the examples and writes the files.
 */

export interface DocumentedType {
  readonly typeName: string;
  readonly schema: Schema;
  /** Resources only. */
  readonly replacedBy?: readonly string[];
  readonly importIdExample?: string;
}

export interface DocsInput {
  readonly provider: Schema;
  readonly resources: readonly DocumentedType[];
  readonly dataSources: readonly DocumentedType[];
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

interface Attribute {
  readonly name: string;
  readonly type: string;
  readonly description: string;
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
}

function attributesOf(schema: Schema): Attribute[] {
  return schema.block.attributes.map((a) => ({ ...a, type: typeExpression(JSON.parse(a.type.toString('utf8')) as CtyType) }));
}

function line(a: Attribute, replacedBy: readonly string[] = []): string {
  const flags = [a.required ? 'Required' : a.optional ? 'Optional' : undefined, a.computed && !a.required ? 'Computed' : undefined, replacedBy.includes(a.name) ? 'Forces replacement' : undefined];
  return `- \`${a.name}\` (\`${a.type}\`; ${flags.filter(Boolean).join(', ')}) ${a.description}`;
}

function frontmatter(title: string, description: string, subcategory = ''): string {
  return ['---', `page_title: "${title}"`, `subcategory: "${subcategory}"`, 'description: |-', ...description.split('\n').map((l) => `  ${l}`), '---', ''].join('\n');
}

const fenced = (language: string, text: string) => `\`\`\`${language}\n${text.trimEnd()}\n\`\`\``;

function examplePart(input: DocsInput, path: string): string[] {
  const text = input.example(path);
  if (!text) throw new Error(`the docs need the example examples/hcl/${path}; write it (it is applied against the simulator by the tests)`);
  return ['## Example Usage', '', fenced('terraform', text), ''];
}

function typePage(input: DocsInput, kind: 'resource' | 'data-source', type: DocumentedType): DocPage {
  const attributes = attributesOf(type.schema);
  const args = attributes.filter((a) => a.required || a.optional);
  const computed = attributes.filter((a) => !a.required && !a.optional);
  const title = kind === 'resource' ? 'Resource' : 'Data Source';
  const short = type.typeName.replace(/^hosting_/, '');
  const parts = [
    frontmatter(`${type.typeName} ${title} - hosting`, type.schema.block.description),
    `# ${type.typeName} (${title})`,
    '',
    type.schema.block.description,
    '',
    ...examplePart(input, `${kind === 'resource' ? 'resources' : 'data-sources'}/${type.typeName}/${kind}.tf`),
    '## Argument Reference',
    '',
    ...(args.length ? args.map((a) => line(a, type.replacedBy)) : ['This data source takes no arguments.']),
    '',
    '## Attribute Reference',
    '',
    ...(computed.length ? computed.map((a) => line(a)) : ['Only the arguments.']),
    '',
  ];
  if (kind === 'resource' && type.importIdExample) {
    parts.push(
      '## Import',
      '',
      `The import id is \`${type.importIdExample}\` in shape. With the command:`,
      '',
      fenced('shell', `terraform import ${type.typeName}.example ${type.importIdExample}`),
      '',
      'Or with an `import` block (Terraform 1.5+); the next plan imports the settings as they are and shows the in-place changes:',
      '',
      fenced('terraform', `import {\n  to = ${type.typeName}.example\n  id = "${type.importIdExample}"\n}`),
      '',
    );
  }
  return { path: `${kind === 'resource' ? 'resources' : 'data-sources'}/${short}.md`, text: parts.join('\n') };
}

function indexPage(input: DocsInput): DocPage {
  const attributes = attributesOf(input.provider);
  return {
    path: 'index.md',
    text: [
      frontmatter('Provider: hosting', input.provider.block.description),
      '# hosting Provider',
      '',
      input.provider.block.description,
      '',
      ...examplePart(input, 'provider/provider.tf'),
      input.providerGuide.trim(),
      '',
      '## Schema',
      '',
      ...attributes.map((a) => line(a)),
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
  ];
}
