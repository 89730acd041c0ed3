import { editDistance } from '../contract/patterns';

/*
 * What a refusal offers instead of a value the account does not have: the closest few of what it
 * has, so a typo is one glance away, without listing an account of hundreds in an error. Only
 * values that are close count (a few edits away); far ones are noise.
 */

/** How many candidates a message offers at most. */
export const MAX_CANDIDATES = 5;

const commonPrefix = (a: string, b: string) => {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
};

/** How many edits away a value may be to be offered: a third of its length, at least two. */
const isClose = (wanted: string) => (value: string) => editDistance(wanted, value) <= Math.max(2, Math.floor(wanted.length / 3));

/** Names near `wanted`: same text ignoring case first, then those sharing its start, each in order. */
export function closestNames(wanted: string, names: readonly string[]): string[] {
  const lower = wanted.toLowerCase();
  const rank = (name: string) => (name.toLowerCase() === lower ? 0 : name.toLowerCase().startsWith(lower.slice(0, 3)) ? 1 : 2);
  return [...new Set(names)].filter(isClose(wanted)).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1)).slice(0, MAX_CANDIDATES);
}

/** The ids near `wanted`, by the longest shared start (`vps_web_9` finds `vps_web_1`), then in order. */
export function closestIds(wanted: string, ids: readonly string[]): string[] {
  const lower = wanted.toLowerCase();
  return [...new Set(ids)]
    .filter(isClose(wanted))
    .sort((a, b) => commonPrefix(b.toLowerCase(), lower) - commonPrefix(a.toLowerCase(), lower) || (a < b ? -1 : 1))
    .slice(0, MAX_CANDIDATES);
}

/**
 * What a hint offers: "the closest are a, b" of many, or "none of its 300 servers is close" (then
 * `listing` says how to see them all).
 */
export const offered = (total: number, noun: string, candidates: readonly string[]) =>
  candidates.length ? `of its ${total} ${noun}, the closest ${candidates.length > 1 ? 'are' : 'is'} ${candidates.join(', ')}` : `none of its ${total} ${noun} is close`;
