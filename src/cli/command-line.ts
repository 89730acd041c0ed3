import { parseArgs } from 'node:util';
import { likelyName } from '../contract/patterns';

/*
 * Every subcommand's arguments, parsed strictly by node:util's parseArgs: an unknown flag, a flag
 * without its value or a word too many is an error naming it (with the closest known flag), never
 * a directory called "--packd"; `--flag=value` keeps the whole value, `=` signs and all.
 */

/**
 * A command line the command does not take (an unknown flag, a value it cannot be, a word missing):
 * said on its own line, the command's usage after it, exit 2, as git and terraform do.
 */
export class UsageError extends Error {}

/** What `parse` returns; what it throws, as a usage error: a value of the command line it cannot take. */
export function asUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** A flag a subcommand takes: a value (`string`, repeatable when `multiple`) or a switch (`boolean`). */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

type FlagValues<T extends FlagSpecs> = {
  [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : T[K]['multiple'] extends true ? string[] : string;
};

export interface CommandLine<T extends FlagSpecs> {
  readonly flags: FlagValues<T>;
  readonly words: string[];
}

/**
 * The flags and words of `args`; `words` is how many words the command takes. `verbs` are the
 * subcommands a first word too many may have been meant as (`simulator stats`: did you mean status?).
 */
export function parseCommandLine<T extends FlagSpecs>(
  args: readonly string[], flags: T, words = 0, verbs: readonly string[] = [],
): CommandLine<T> {
  try {
    const parsed = parseArgs({ args: [...args], options: flags as Record<string, FlagSpec>, strict: true, allowPositionals: true });
    if (parsed.positionals.length > words) {
      const extra = parsed.positionals[words];
      const meant = words === 0 && extra === args[0] ? closestWord(extra, verbs) : undefined;
      throw Object.assign(new Error(`unexpected argument ${JSON.stringify(extra)}${meant ? `; did you mean "${meant}"?` : ''}`), { code: 'UNEXPECTED_ARGUMENT' });
    }
    return { flags: parsed.values as FlagValues<T>, words: parsed.positionals };
  } catch (err) {
    throw new UsageError(explain(err as Error & { code?: string }, Object.keys(flags)));
  }
}

/** parseArgs' messages, said in the words this tool's other messages use. */
function explain(err: Error & { code?: string }, known: readonly string[]): string {
  const flag = /'(-[^' ]+)/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${flag}${didYouMean(meantFlags(flag ?? '', known))}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(err.message) ? `${flag} takes no value` : `${flag} needs a value (to give one that starts with -, write ${flag}=VALUE)`;
    default:
      return err.message;
  }
}

/**
 * The known flags a mistyped or shortened one may have meant, as git suggests them: those it begins
 * (`--lang`: --language), else the one nearest by edits (`--verison`: --version). A prefix is only
 * suggested, never taken: a flag added later would change what an old command line means.
 */
export function meantFlags(given: string, known: readonly string[]): string[] {
  const name = given.replace(/^-+/, '').split('=')[0];
  const begun = name.length >= 2 ? known.filter((flag) => flag.startsWith(name)) : [];
  if (begun.length) return begun;
  const nearest = likelyName(name, known);
  return nearest ? [nearest] : [];
}

/** `; did you mean --a?`, or `--a or --b?`; nothing when no flag is meant. */
export const didYouMean = (flags: readonly string[]): string =>
  (flags.length ? `; did you mean ${flags.map((f) => `--${f}`).join(flags.length === 2 ? ' or ' : ', ').replace(/, (?=[^,]*$)/, ', or ')}?` : '');

/** The known word (a command, a subcommand) a mistyped one most likely meant. */
export const closestWord = likelyName;
