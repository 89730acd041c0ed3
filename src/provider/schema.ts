/*
 * Terraform schemas as this provider declares them: a plain attribute's type is a cty type
 * constraint, sent as its JSON encoding; an object attribute is a nested attribute (tfplugin6
 * `Schema.Object`), so every member carries its own description. Terraform derives the same value
 * type from either form, so state written before members had descriptions reads unchanged.
 */

export type CtyType = 'string' | 'bool' | 'number' | ['set' | 'list' | 'map', CtyType] | ['object', Record<string, CtyType>];

/** An object (`single`) or a list of objects (`list`) whose members are attributes of their own. */
export interface NestedType {
  readonly nesting: 'single' | 'list';
  readonly members: readonly AttributeSpec[];
}

export interface AttributeSpec {
  readonly name: string;
  readonly type: CtyType | NestedType;
  readonly description: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  /** Terraform warns where a configuration sets it. */
  readonly deprecated?: boolean;
}

/** `tfplugin6.StringKind`: descriptions are Markdown, so editors and the generated docs render them. */
const MARKDOWN = 1;
/** `tfplugin6.Schema.Object.NestingMode`. */
const NESTING_MODE = { single: 1, list: 2 } as const;

/** The wire shape of `tfplugin6.Schema.Attribute`: exactly one of `type` and `nested_type`. */
export interface WireAttribute {
  readonly name: string;
  readonly type?: Buffer;
  readonly nested_type?: { readonly attributes: readonly WireAttribute[]; readonly nesting: number };
  readonly description: string;
  readonly description_kind: number;
  readonly required: boolean;
  readonly optional: boolean;
  readonly computed: boolean;
  readonly deprecated: boolean;
}

export const isNested = (type: CtyType | NestedType): type is NestedType => typeof type === 'object' && !Array.isArray(type);

function wireAttribute(a: AttributeSpec): WireAttribute {
  const flags = { required: !!a.required, optional: !!a.optional, computed: !!a.computed, deprecated: !!a.deprecated };
  const common = { name: a.name, description: a.description, description_kind: MARKDOWN, ...flags };
  return isNested(a.type)
    ? { ...common, nested_type: { attributes: a.type.members.map(wireAttribute), nesting: NESTING_MODE[a.type.nesting] } }
    : { ...common, type: Buffer.from(JSON.stringify(a.type)) };
}

/** The wire shape of `tfplugin6.Schema` for a block of attributes. */
export function schemaOf(description: string, attributes: readonly AttributeSpec[]) {
  return { version: 0, block: { version: 0, description, description_kind: MARKDOWN, attributes: attributes.map(wireAttribute) } };
}

export type Schema = ReturnType<typeof schemaOf>;

/** What a member is: its type and its description. */
export type MemberTable = Record<string, readonly [CtyType | NestedType, string]>;

type Flags = Pick<AttributeSpec, 'required' | 'optional' | 'computed'>;

/** Attributes from a table of names, types and descriptions; by default read-only (data the API reports). */
export const membersOf = (table: MemberTable, flags: Flags = { computed: true }): AttributeSpec[] =>
  Object.entries(table).map(([name, [type, description]]) => ({ name, type, description, ...flags }));

/** An object, or a list of objects, with a description for every member. */
export const objectOf = (members: MemberTable, flags?: Flags): NestedType => ({ nesting: 'single', members: membersOf(members, flags) });
export const listOf = (members: MemberTable): NestedType => ({ nesting: 'list', members: membersOf(members) });

/** Words as prose lists them: `a`, `a or b`, `a, b or c`. */
export const orList = (words: readonly string[]): string => (words.length === 1 ? words[0] : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`);

/** "`a`, `b` or `c`": the values an enumerated member takes, from the API's own list. */
export const oneOf = (values: readonly string[]): string => orList(values.map((v) => `\`${v}\``));

/** `on_destroy`, shared by the kinds whose settings can be put back. */
export const ON_DESTROY_ATTRIBUTE: AttributeSpec = {
  name: 'on_destroy',
  type: 'string',
  optional: true,
  description: '"retain" (default): removing the resource leaves the settings as they are. "restore": puts back the values observed before this resource first changed them.',
};

/** `expect_takeover`, shared by every kind: a reviewed takeover is not warned of again. */
export const EXPECT_TAKEOVER_ATTRIBUTE: AttributeSpec = {
  name: 'expect_takeover',
  type: 'bool',
  optional: true,
  description: 'Set once the team has reviewed that creating this resource changes settings that exist already: the plan then does not warn of it. A value someone changes after the plan is still named at apply.',
};

/** What an apply does with a value someone changed by hand since the plan: the values and their words. */
export const CHANGED_SINCE_PLAN_VALUES = ['overwrite', 'fail'] as const;
export type ChangedSincePlan = (typeof CHANGED_SINCE_PLAN_VALUES)[number];

/** `changed_since_plan`, of the provider block and of each settings kind (which overrides it). */
export const CHANGED_SINCE_PLAN_ATTRIBUTE: AttributeSpec = {
  name: 'changed_since_plan',
  type: 'string',
  optional: true,
  description: 'What an apply does with a value someone changed on the server after the plan read it (a saved plan applied later): "overwrite" (default) sets the planned value and warns, naming the change; "fail" writes nothing to that server, leaves the change in place, and fails in the same words. On a resource it overrides the provider block\'s setting.',
};
