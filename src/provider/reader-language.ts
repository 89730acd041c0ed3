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

/**
 * Quoted text (a value from the user or the API: kept as it is), or a setting's name and, when
 * the text gives one, the value HCL assigns it (`= true`).
 */
const QUOTED_OR_SETTING = /"(?:[^"\\\n]|\\.)*"|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*)(?: = (true|false|-?\d+(?:\.\d+)?|\[[^\]\n]*\]|"(?:[^"\\\n]|\\.)*"))?/g;

function setting(language: ReaderLanguage, name: string, value: string | undefined): string {
  const spelled = language === 'typescript' ? camelCase(name) : name;
  if (value === undefined) return spelled;
  if (language === 'typescript') return `${spelled}: ${value}`;
  return `${spelled}=${value === 'true' ? 'True' : value === 'false' ? 'False' : value}`;
}

/**
 * A message in the reader's words: each setting of `names` (HCL spellings), and each assignment
 * of one, as the reader writes it. A one-word name (`state`) is a word of prose too, so it is
 * changed only where the text assigns it.
 */
export function inReaderLanguage(text: string, language: ReaderLanguage, names: ReadonlySet<string>): string {
  if (language === 'hcl') return text;
  const told = text.split(PROVIDER_BLOCK.hcl).join(PROVIDER_BLOCK[language]);
  return told.replace(QUOTED_OR_SETTING, (whole, name: string | undefined, value: string | undefined) => {
    if (name === undefined || !names.has(name) || (!name.includes('_') && value === undefined)) return whole;
    return setting(language, name, value);
  });
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
