import type { Diagnostic } from './diagnostics';

/*
 * The provider's messages are written once, in HCL's words. A stack the constructs synthesized
 * says which language wrote it (`message_language` in the provider block), and each message is
 * then told in that language alone: a TypeScript reader sees `expectTakeover: true`, a Python
 * reader `expect_takeover=True`, an HCL reader `expect_takeover = true`.
 */

export const READER_LANGUAGES = ['hcl', 'typescript', 'python'] as const;
export type ReaderLanguage = (typeof READER_LANGUAGES)[number];

/** Where the provider block's settings live for each reader. */
const PROVIDER_BLOCK: Record<ReaderLanguage, string> = { hcl: 'the provider "hosting" block', typescript: 'the HostingApi construct', python: 'the HostingApi construct' };

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const pascalCase = (name: string) => camelCase(name).replace(/^[a-z]/, (c) => c.toUpperCase());

/**
 * The settings the constructs take as an enum (src/constructs), by their HCL names, with the values
 * it has: such a value is told as its member (`ChangedSincePlan.FAIL`); any other stays a string.
 */
export const ENUM_SETTINGS: Readonly<Record<string, { readonly type: string; readonly values: readonly string[] }>> = {
  changed_since_plan: { type: 'ChangedSincePlan', values: ['overwrite', 'fail'] },
  on_destroy: { type: 'OnDestroy', values: ['retain', 'restore'] },
  state: { type: 'PowerStateValue', values: ['running', 'stopped'] },
  stop_method: { type: 'StopMethod', values: ['shutdown', 'power_off'] },
  layer4: { type: 'Layer4Protection', values: ['dynamic', 'permanent'] },
  layer7: { type: 'Layer7Protection', values: ['off', 'permanent', 'only'] },
};

/** `"fail"` of changed_since_plan as `ChangedSincePlan.FAIL`; undefined for any other setting or value. */
function enumMember(name: string, value: string): string | undefined {
  const taken = ENUM_SETTINGS[name];
  const raw = value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : undefined;
  return taken && raw !== undefined && taken.values.includes(raw) ? `${taken.type}.${raw.toUpperCase()}` : undefined;
}

/**
 * Quoted text (a value from the user or the API, JSON-quoted: kept as it is), or a setting's name
 * standing alone (not part of a path such as `var.server_id`, a host name or a longer word) and,
 * when the text gives one, the value HCL assigns it (`= true`).
 */
const QUOTED_OR_SETTING = /"(?:[^"\\\n]|\\.)*"|(?<![\w.$/-])([a-z][a-z0-9]*(?:_[a-z0-9]+)*)(?![\w-]|\.\w)(?: = (true|false|-?\d+(?:\.\d+)?|\[[^\]\n]*\]|"(?:[^"\\\n]|\\.)*"))?/g;

/** A line of the API's own words (`API: 422 …`, `field …: …`, as reconcile-error.ts writes them): told as the API said it. */
const API_LINE = /^\s*(?:API:|field) /;

/** An HCL data source named in prose: the construct that reads it for a construct's reader. */
const DATA_SOURCE = /\bthe (hosting_[a-z0-9_]+) data source\b/g;

function setting(language: ReaderLanguage, name: string, value: string | undefined): string {
  const spelled = language === 'typescript' ? camelCase(name) : name;
  if (value === undefined) return spelled;
  const member = enumMember(name, value);
  if (language === 'typescript') return `${spelled}: ${member ?? value}`;
  return `${spelled}=${member ?? (value === 'true' ? 'True' : value === 'false' ? 'False' : value)}`;
}

/** One line of prose in the reader's words. */
function lineInLanguage(line: string, language: ReaderLanguage, names: ReadonlySet<string>): string {
  if (API_LINE.test(line)) return line;
  const told = line.split(PROVIDER_BLOCK.hcl).join(PROVIDER_BLOCK[language]).replace(DATA_SOURCE, (_, type: string) => `the Data${pascalCase(type)} construct`);
  return told.replace(QUOTED_OR_SETTING, (whole, name: string | undefined, value: string | undefined) => {
    if (name === undefined || !names.has(name) || (!name.includes('_') && value === undefined)) return whole;
    return setting(language, name, value);
  });
}

/**
 * A message in the reader's words: each setting of `names` (HCL spellings), and each assignment
 * of one, as the reader writes it. A one-word name (`state`) is a word of prose too, so it is
 * changed only where the text assigns it.
 */
export function inReaderLanguage(text: string, language: ReaderLanguage, names: ReadonlySet<string>): string {
  if (language === 'hcl') return text;
  return text.split('\n').map((line) => lineInLanguage(line, language, names)).join('\n');
}

/** A diagnostic told in the reader's language. */
export function diagnosticInLanguage(diagnostic: Diagnostic, language: ReaderLanguage, names: ReadonlySet<string>): Diagnostic {
  if (language === 'hcl') return diagnostic;
  const tell = (text: string) => inReaderLanguage(text, language, names);
  return { ...diagnostic, summary: tell(diagnostic.summary), ...(diagnostic.detail !== undefined && { detail: tell(diagnostic.detail) }) };
}

/** The language a provider block names: HCL unless it names one of the others. */
export function languageOf(value: unknown): ReaderLanguage {
  return READER_LANGUAGES.find((language) => language === value) ?? 'hcl';
}

interface SchemaBlock {
  readonly attributes?: ReadonlyArray<{ readonly name: string }>;
  readonly block_types?: ReadonlyArray<{ readonly type_name: string; readonly block: SchemaBlock }>;
}

/** Every attribute and block name of these schemas: the settings a message may name. */
export function settingNames(blocks: readonly SchemaBlock[]): ReadonlySet<string> {
  const names = new Set<string>();
  const collect = (block: SchemaBlock) => {
    for (const attribute of block.attributes ?? []) names.add(attribute.name);
    for (const nested of block.block_types ?? []) {
      names.add(nested.type_name);
      collect(nested.block);
    }
  };
  blocks.forEach(collect);
  return names;
}
