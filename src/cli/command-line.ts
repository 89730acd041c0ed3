import { parseArgs } from 'node:util';

/*
 * Every subcommand's arguments, parsed strictly by node:util's parseArgs: an unknown flag, a flag
 * without its value or a word too many is an error naming it (with the closest known flag), never
 * a directory called "--packd"; `--flag=value` keeps the whole value, `=` signs and all.
 */

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

/** The flags and words of `args`; `words` is how many words the command takes. */
export function parseCommandLine<T extends FlagSpecs>(args: readonly string[], flags: T, usage: string, words = 0): CommandLine<T> {
  try {
    const parsed = parseArgs({ args: [...args], options: flags as Record<string, FlagSpec>, strict: true, allowPositionals: true });
    if (parsed.positionals.length > words) {
      throw new Error(`unexpected argument ${JSON.stringify(parsed.positionals[words])}`);
    }
    return { flags: parsed.values as FlagValues<T>, words: parsed.positionals };
  } catch (err) {
    throw new Error(`${explain(err as Error & { code?: string }, Object.keys(flags))}; usage: ${usage}`);
  }
}

/** parseArgs' messages, said in the words this tool's other messages use. */
function explain(err: Error & { code?: string }, known: readonly string[]): string {
  const flag = /'(-[^' ]+)/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const closest = closestFlag(flag ?? '', known);
      return `unknown option ${flag}${closest ? `; did you mean --${closest}?` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(err.message) ? `${flag} takes no value` : `${flag} needs a value (to give one that starts with -, write ${flag}=VALUE)`;
    default:
      return err.message;
  }
}

/** The known flag a mistyped one most likely meant: within a third of its length in edits, at least 2. */
export function closestFlag(given: string, known: readonly string[]): string | undefined {
  const name = given.replace(/^-+/, '').split('=')[0];
  const scored = known.map((flag) => ({ flag, distance: editDistance(name, flag) })).sort((a, b) => a.distance - b.distance);
  const best = scored[0];
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.flag : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
