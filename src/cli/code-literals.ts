/*
 * Text from the API (names, descriptions, ids) written into generated HCL, TypeScript and Python,
 * as each language's own string literal or as a one-line comment that nothing can end early. A
 * server's name may be written by another account (a shared server), so no character of it is
 * trusted: line terminators, control characters and bidirectional overrides (which make a reader
 * see other code than the compiler does) are escaped everywhere.
 */

/** Characters no generated line shows as they are: C0 and C1 controls, DEL, line and paragraph separators, bidi controls. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

const hex4 = (ch: string) => ch.charCodeAt(0).toString(16).padStart(4, '0');
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes one character with the language's escapes; `null` keeps it. */
type Escape = (ch: string) => string | null;

function escapeWith(text: string, escape: Escape): string {
  // A lone surrogate cannot be written in UTF-8 source: it becomes the replacement character.
  return [...text.replace(LONE_SURROGATE, '\ufffd')].map((ch) => escape(ch) ?? ch).join('');
}

const COMMON: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** An HCL quoted string: only HCL's escapes (no `\b` or `\f`), and `${`/`%{` doubled so they stay text. */
export function hclString(text: string): string {
  return quotedString(text).replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

/**
 * A double-quoted string literal that TypeScript and Python read alike (they share these escapes),
 * and the text of a line comment (`#` or `//`): quoted, so the reader sees where the text starts and
 * ends, with no line terminator left to end the comment.
 */
export function quotedString(text: string): string {
  return `"${escapeWith(text, (ch) => COMMON[ch] ?? (INVISIBLE.test(ch) ? `\\u${hex4(ch)}` : null))}"`;
}

/** A line of a comment with every character that could end it or hide what follows escaped. */
export function commentLine(text: string): string {
  return escapeWith(text, (ch) => (INVISIBLE.test(ch) ? `\\u${hex4(ch)}` : null));
}
