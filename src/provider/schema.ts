/*
 * Terraform schemas as this provider declares them: attribute types are cty type constraints,
 * sent as their JSON encoding.
 */

export type CtyType = 'string' | 'bool' | 'number' | ['set' | 'list' | 'map', CtyType] | ['object', Record<string, CtyType>];

export interface AttributeSpec {
  readonly name: string;
  readonly type: CtyType;
  readonly description: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
}

/** `tfplugin6.StringKind`: descriptions are Markdown, so editors and the generated docs render them. */
const MARKDOWN = 1;

/** The wire shape of `tfplugin6.Schema` for a block of plain attributes. */
export function schemaOf(description: string, attributes: readonly AttributeSpec[]) {
  return {
    version: 0,
    block: {
      version: 0,
      description,
      description_kind: MARKDOWN,
      attributes: attributes.map((a) => ({
        name: a.name,
        type: Buffer.from(JSON.stringify(a.type)),
        description: a.description,
        description_kind: MARKDOWN,
        required: !!a.required,
        optional: !!a.optional,
        computed: !!a.computed,
      })),
    },
  };
}

export type Schema = ReturnType<typeof schemaOf>;

/** `on_destroy`, shared by the kinds whose settings can be put back. */
export const ON_DESTROY_ATTRIBUTE: AttributeSpec = {
  name: 'on_destroy',
  type: 'string',
  optional: true,
  description: '"retain" (default): removing the resource leaves the settings as they are. "restore": puts back the values observed before this resource first changed them.',
};
