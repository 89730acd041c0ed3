/*
 * What each command says of itself, as git's and terraform's do: `COMMAND --help` and
 * `help COMMAND` print its usage, what it does, its options and an example; a usage error prints
 * the error on its own line and the command's usage after it. Every line fits 80 columns.
 */

/** One command of the tool (`simulator start`, `adopt`): what its help and its usage errors print. */
export interface CommandHelp {
  /** The words after the tool's name that run it: `simulator start`. */
  readonly words: string;
  /** What it does, in the top-level help's one line (at most 54 characters). */
  readonly summary: string;
  /** Its arguments after `words`, one usage line each: `[--port N] [--host ADDRESS]`. */
  readonly forms: readonly string[];
  /** What it does, said in full: one paragraph, wrapped. */
  readonly about: string;
  /** Each option or argument and what it does. */
  readonly options: readonly (readonly [string, string])[];
  /** Command lines to copy: the tool's arguments (the tool's name is put before each). */
  readonly examples: readonly (readonly string[])[];
  /** A line said before the examples (the variables they need), if any. */
  readonly exampleNote?: string;
}

export const WIDTH = 80;
const OPTION_COLUMN = 24;

/** `text` in lines of at most `width` characters, broken between words; `indent` begins every line. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return [...lines, indent + line];
}

/**
 * A command to run next, as a shell reads it when pasted: the words that say what it does on a
 * line of their own, then the command on the next, indented, unquoted and never wrapped (a path
 * can be longer than a line).
 */
export const commandToRun = (what: string, command: string): string[] => [...wrap(`${what}:`, WIDTH), `  ${command}`];

/** A command line to copy, indented; one too long for a line goes on, after a backslash, as a shell reads it. */
function exampleLines(line: string): string[] {
  const lines = wrap(line, WIDTH - 2, '  ');
  return lines.map((text, i) => (i === 0 ? text : `  ${text}`) + (i < lines.length - 1 ? ' \\' : ''));
}

/** The parts of a usage line that stay together: a bracketed group is one part, spaces and all. */
function usageParts(form: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let part = '';
  for (const char of form) {
    if (char === ' ' && depth === 0) {
      if (part) parts.push(part);
      part = '';
      continue;
    }
    if (char === '[') depth += 1;
    if (char === ']') depth -= 1;
    part += char;
  }
  return part ? [...parts, part] : parts;
}

/** One form of the usage, wrapped: lines after the first are indented under its arguments, or by 11 columns when that is too far. */
function usageForm(lead: string, form: string): string[] {
  const indent = ' '.repeat(lead.length + 1 <= 40 ? lead.length + 1 : 11);
  const lines: string[] = [];
  let line = lead;
  for (const part of usageParts(form)) {
    if (line !== lead && line.length + 1 + part.length > WIDTH) {
      lines.push(line);
      line = indent + part;
    } else {
      line = `${line} ${part}`;
    }
  }
  return [...lines, line];
}

/** `usage: TOOL WORDS FORM`, one form after another, as a usage error and `--help` print it. */
export function usageOf(command: CommandHelp, tool: string): string {
  return command.forms.flatMap((form, i) => usageForm(`${i === 0 ? 'usage:' : '      '} ${tool} ${command.words}`, form)).join('\n');
}

/** What `COMMAND --help` prints: the usage, what it does, its options and its examples. */
export function helpOf(command: CommandHelp, tool: string): string {
  const options = command.options.flatMap(([name, what]) => {
    const text = wrap(what, WIDTH, ' '.repeat(OPTION_COLUMN));
    const head = `  ${name}`;
    if (head.length < OPTION_COLUMN - 1) return [head.padEnd(OPTION_COLUMN) + text[0].trimStart(), ...text.slice(1)];
    return [head, ...text];
  });
  const examples = command.examples.flatMap((args) => exampleLines([tool, ...args].join(' ')));
  return [
    usageOf(command, tool),
    '',
    ...wrap(command.about, WIDTH),
    ...(options.length ? ['', 'Options:', ...options] : []),
    '',
    command.examples.length > 1 ? 'Examples:' : 'Example:',
    ...(command.exampleNote ? wrap(command.exampleNote, WIDTH, '  ') : []),
    ...examples,
  ].join('\n');
}
