/*
 * Terraform schemas as this provider declares them: attribute types are cty type constraints,
 * sent as their JSON encoding.
 */

export type CtyType = 'string' | 'bool' | 'number' | ['set', CtyType] | ['list', CtyType];

export interface AttributeSpec {
  readonly name: string;
  readonly type: CtyType;
  readonly description: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
}

/** The wire shape of `tfplugin6.Schema` for a block of plain attributes. */
export function schemaOf(description: string, attributes: readonly AttributeSpec[]) {
  return {
    version: 0,
    block: {
      version: 0,
      description,
      attributes: attributes.map((a) => ({
        name: a.name,
        type: Buffer.from(JSON.stringify(a.type)),
        description: a.description,
        required: !!a.required,
        optional: !!a.optional,
        computed: !!a.computed,
      })),
    },
  };
}
