import { Fn, Token } from './cdk';

/*
 * A plain string in a prop means that text, exactly, on every bridge: `${…}` and `%{…}` in a
 * description are characters, never a Terraform template. cdktf tokens inside the string (a
 * reference, an iterator value, an `Fn` result) still resolve. cdktf writes a string attribute into
 * the JSON as it is, where Terraform evaluates templates, and renders a string inside an expression
 * (the bridges' `jsonencode(…)`) escaping only newlines and `${`, so each context gets its own
 * encoding here.
 */

/** How cdktf encodes a token inside a string (the CDK token encoding, the same in cdktn). */
const STRING_TOKEN = /(\$\{TfToken\[[^\]]+\]\})/;

/** The string's parts in order: odd indexes are tokens, even ones literal text. */
function parts(text: string): string[] {
  return Token.isUnresolved(text) ? text.split(STRING_TOKEN) : [text];
}

/** Applies `literal` to every string in a value, leaving tokens and everything but plain data alone. */
function mapStrings(value: unknown, literal: (text: string) => string): unknown {
  if (typeof value === 'string') return literal(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, literal));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, literal)]));
  return value;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Terraform's template escapes: `$${` and `%%{` stand for `${` and `%{`. */
export function escapeTemplateSequences(text: string): string {
  return text.replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

/** For attributes cdktf writes into the JSON as they are: the provider's resources and data sources. */
export function literalAttributes<T>(value: T): T {
  const literal = (text: string) => parts(text).map((part, i) => (i % 2 ? part : escapeTemplateSequences(part))).join('');
  return mapStrings(value, literal) as T;
}

/** What cdktf's expression renderer passes through wrongly: quotes, backslashes, `%{` and control characters but newline. */
const UNSAFE_IN_EXPRESSION = /["\\]|%\{|[\u0000-\u0009\u000b-\u001f\u007f\u2028\u2029]/;

/**
 * For values cdktf renders inside an HCL expression (the bridges' documents and triggers). Text it
 * renders right stays as it is, so the documents of earlier releases hash the same; any other text
 * travels as `base64decode("…")`, which Terraform turns back into the exact string at plan time.
 */
export function literalExpressionValues<T>(value: T): T {
  const carried = (text: string) => (UNSAFE_IN_EXPRESSION.test(text) ? Fn.base64decode(Buffer.from(text, 'utf8').toString('base64')) : text);
  const literal = (text: string) => {
    const split = parts(text);
    if (!split.some((part, i) => i % 2 === 0 && UNSAFE_IN_EXPRESSION.test(part))) return text;
    return split.length === 1 ? carried(text) : Fn.join('', split.filter((part) => part !== '').map((part) => (Token.isUnresolved(part) ? part : carried(part))));
  };
  return mapStrings(value, literal) as T;
}
