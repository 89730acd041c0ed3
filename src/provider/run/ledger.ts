import { readWithin, type PrivateState } from '../resources/private-state';
import type { RunNotes } from '../run-notes';
import type { WalkProof } from './walk';

/**
 * Which plan a read or a note serves (run-notes.ts): a read marked by this process, or by the run's
 * last process that planned for the account, is trusted by the apply that carries out that plan; a
 * process proven to plan takes no earlier process's notes (walk.ts).
 */
export interface RunLedger {
  /**
   * Whether the refresh's read behind a prior state was made for the plan this apply carries out,
   * for this account (and, with `plan_read_max_age_seconds` set, is at most that old): the apply
   * then decides on it without a read of its own.
   */
  trustsRead(priv: PrivateState): boolean;
  /** `priv` marked as read now, by this process for this account. */
  markRead(priv: PrivateState): PrivateState;
  /** Whether an earlier process of this terraform run planned for this account. */
  planOfThisRun(): boolean;
  /** What this plan noted under `key` for this account. */
  planNote(key: string): unknown;
  /** Notes what this plan read, for the apply that follows it in the same terraform run. */
  notePlan(key: string, value: unknown): void;
}

export function runLedger(notes: RunNotes, account: string, maxAgeMs: number, walk: WalkProof | undefined): RunLedger {
  return {
    trustsRead: (priv) => notes.ofThisPlan(account, priv.readIn) && readWithin(priv, maxAgeMs, Date.now()),
    markRead: (priv) => ({ ...priv, readAt: Date.now(), readIn: notes.process }),
    planOfThisRun: () => notes.plannedEarlier(account),
    // A plan walk's notes are its own: an earlier plan-only run block's would be stale (`terraform test`).
    planNote: (key) => notes.get(account, key, maxAgeMs, walk?.plansOnly() ?? false),
    notePlan: (key, value) => notes.put(account, key, value),
  };
}
