import type { RunNotes } from '../run-notes';

/** Takeover warnings a plan shows each in full; the rest share MORE_TAKEOVERS. */
export const TAKEOVERS_IN_FULL = 10;
export const MORE_TAKEOVERS = `Creating this resource changes settings that exist already (more than ${TAKEOVERS_IN_FULL} in this plan; each one's change is in its detail, as terraform plan -json shows)`;

/** What has been said to the reader: once a terraform run for the same words, and the takeovers' summaries. */
export interface SaidOnce {
  /** Whether this terraform run has not said these words for this account yet (run-notes.ts firstTime). */
  firstTime(words: string): boolean;
  /**
   * A takeover warning's summary: its own for the first TAKEOVERS_IN_FULL of this process, then one
   * shared text, which Terraform folds into one warning; each detail still names its change. Terraform
   * renders every distinct warning at a cost that grows with the square of their number.
   */
  takeoverSummary(own: string): string;
}

export function saidOnce(notes: RunNotes, account: string): SaidOnce {
  let takeoversSaid = 0;
  return {
    firstTime: (words) => notes.firstTime(`${account} ${words}`),
    takeoverSummary: (own) => (++takeoversSaid <= TAKEOVERS_IN_FULL ? own : MORE_TAKEOVERS),
  };
}
