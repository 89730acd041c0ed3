import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/*
 * The code blocks of README.md and docs/, as the docs tests run them. A block that is not a whole
 * program says so in an HTML comment on the line before its fence, which renders as nothing:
 *
 *   <!-- docs-test: fragment -->            a piece of a larger program (HCL: checked as syntax)
 *   <!-- docs-test: in-stack -->            TypeScript or Python inside a stack's constructor, `api` in scope
 *   <!-- docs-test: with-account -->        TypeScript or Python inside a test, a started `account` in scope
 *   <!-- docs-test: file web-stack.ts -->   one file of a project; the doc's blocks with a file name share one folder
 *   <!-- docs-test: not-run REASON -->      a shell block a test cannot run (it is the test run itself, needs a real registry…)
 */

export const ROOT = join(__dirname, '..', '..');

export type Language = 'ts' | 'python' | 'terraform' | 'shell' | 'json' | 'yaml' | 'text' | 'js';

export type Marker =
  | { readonly kind: 'whole' }
  | { readonly kind: 'fragment' }
  | { readonly kind: 'in-stack' }
  | { readonly kind: 'with-account' }
  | { readonly kind: 'file'; readonly name: string }
  | { readonly kind: 'not-run'; readonly why: string };

export interface DocBlock {
  /** `docs/guides/provider.md:55`, as a reader finds it. */
  readonly where: string;
  readonly file: string;
  readonly line: number;
  readonly language: Language;
  readonly code: string;
  readonly marker: Marker;
}

/** Info strings → the language the tests check them as. */
const LANGUAGES: Record<string, Language> = Object.fromEntries(Object.entries({
  ts: ['ts', 'typescript'],
  python: ['python', 'py'],
  terraform: ['terraform', 'hcl'],
  shell: ['sh', 'shell', 'bash', 'console'],
  json: ['json', 'jsonc'],
  yaml: ['yaml', 'yml'],
  text: ['text'],
  js: ['js'],
}).flatMap(([language, names]) => names.map((name) => [name, language as Language])));

const markdownBelow = (dir: string): string[] =>
  readdirSync(dir).sort().flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? markdownBelow(full) : name.endsWith('.md') ? [full] : [];
  });

/** README.md and every page under docs/. */
export const DOC_FILES = [join(ROOT, 'README.md'), ...markdownBelow(join(ROOT, 'docs'))];

export function parseMarker(comment: string | undefined): Marker | string {
  if (comment === undefined) return { kind: 'whole' };
  const match = /^<!-- docs-test: (fragment|in-stack|with-account|file|not-run)(?: (.+?))? -->$/.exec(comment.trim());
  if (!match) return `"${comment.trim()}" is not a docs-test marker (fragment, in-stack, with-account, file NAME, not-run REASON)`;
  const [, kind, argument] = match;
  if (kind === 'file') return argument && /^[\w-][\w./-]*$/.test(argument) && !argument.includes('..') ? { kind, name: argument } : 'docs-test: file needs a file name inside the project (no ..)';
  if (kind === 'not-run') return argument ? { kind, why: argument } : 'docs-test: not-run needs the reason';
  return argument ? `docs-test: ${kind} takes nothing after it` : { kind } as Marker;
}

/**
 * Every fenced block of one markdown text. Throws, naming the line, on a fence left open, a fence
 * without a language, a language no test runs, or a marker it does not understand.
 */
export function blocksOf(text: string, where: string, file = where): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const close = lines.findIndex((line, j) => j > i && line.trimStart().startsWith(fence) && line.trim() === fence);
    if (close < 0) throw new Error(`${where}:${i + 1}: this code block is never closed`);
    const language = LANGUAGES[info.trim()];
    if (!language) throw new Error(`${where}:${i + 1}: code block language "${info.trim()}" is none the docs tests run (${Object.keys(LANGUAGES).join(', ')})`);
    const previous = lines.slice(0, i).reverse().find((line) => line.trim() !== '');
    const marker = parseMarker(previous?.trim().startsWith('<!-- docs-test') ? previous : undefined);
    if (typeof marker === 'string') throw new Error(`${where}:${i}: ${marker}`);
    const code = lines.slice(i + 1, close).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n');
    blocks.push({ where: `${where}:${i + 1}`, file, line: i + 1, language, code: `${code}\n`, marker });
    i = close;
  }
  return blocks;
}

export const docBlocks = (): DocBlock[] =>
  DOC_FILES.flatMap((file) => blocksOf(readFileSync(file, 'utf8'), relative(ROOT, file), file));

/**
 * The simple commands of a shell block, as words: quotes removed, `\`-continued lines joined,
 * comments dropped, split at `&&`, `||`, `|`, `&`, `;` and line ends; redirections and leading
 * `NAME=value` assignments left out. Enough for the commands the docs show; `bash -n` checks the syntax itself.
 */
const REDIRECT = /^\d?[<>]/;

export function shellCommands(code: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  const endCommand = () => {
    endWord();
    const kept = words.filter((w, i) => !REDIRECT.test(w) && !(REDIRECT.test(words[i - 1] ?? '') && !words[i - 1].endsWith('&')));
    const start = kept.findIndex((w) => !/^[A-Za-z_]\w*=/.test(w));
    if (start >= 0) commands.push(kept.slice(start));
    words = [];
  };
  const text = code.replace(/\\\n/g, ' ');
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else word = (word ?? '') + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word = word ?? '';
    } else if (c === '#' && word === undefined) {
      while (i < text.length && text[i] !== '\n') i++;
      endCommand();
    } else if ((c === '>' || c === '<') && (word === undefined || /^\d$/.test(word))) {
      const operator = /^[<>]+&?\d*/.exec(text.slice(i))![0];
      word = `${word ?? ''}${operator}`;
      i += operator.length - 1;
      endWord();
    } else if (c === '\n' || c === ';' || c === '|' || c === '&') {
      if ((c === '&' && text[i + 1] === '&') || (c === '|' && text[i + 1] === '|')) i++;
      endCommand();
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else {
      word = (word ?? '') + c;
    }
  }
  endCommand();
  return commands;
}
