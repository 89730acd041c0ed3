/*
 * What a refusal offers instead of a value the account does not have: the closest few of what it
 * has, so a typo is one glance away, without listing an account of hundreds in an error.
 */

/** How many candidates a message offers at most. */
export const MAX_CANDIDATES = 5;

const commonPrefix = (a: string, b: string) => {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
};

/** Names nearest to `wanted`: same text ignoring case first, then those sharing its start, then any, each in order. */
export function closestNames(wanted: string, names: readonly string[]): string[] {
  const lower = wanted.toLowerCase();
  const rank = (name: string) => (name.toLowerCase() === lower ? 0 : name.toLowerCase().startsWith(lower.slice(0, 3)) ? 1 : 2);
  return [...new Set(names)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1)).slice(0, MAX_CANDIDATES);
}

/** The ids nearest to `wanted`, by the longest shared start (`vps_web_9` finds `vps_web_1`), then in order. */
export function closestIds(wanted: string, ids: readonly string[]): string[] {
  const lower = wanted.toLowerCase();
  return [...new Set(ids)]
    .sort((a, b) => commonPrefix(b.toLowerCase(), lower) - commonPrefix(a.toLowerCase(), lower) || (a < b ? -1 : 1))
    .slice(0, MAX_CANDIDATES);
}

/** "it has a, b" or "of its 300 servers, the closest are a, b": what a hint offers. */
export const offered = (total: number, noun: string, candidates: readonly string[]) =>
  `${total > candidates.length ? `of its ${total} ${noun}, the closest are` : 'it has'} ${candidates.join(', ')}`;
