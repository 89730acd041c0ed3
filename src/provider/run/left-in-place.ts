import type { RunNotes } from '../run-notes';

/** The run notes' key of what a plan removes and leaves in place. */
const LEFT_IN_PLACE = 'left in place';

/** A note of LEFT_IN_PLACE: lines, or nothing (a note is a cache, never trusted as it is). */
const linesOf = (note: unknown): string[] => (Array.isArray(note) && note.every((l) => typeof l === 'string') ? note : []);

/** What a destroy left in place, in the words of its one warning. */
const removedAndLeft = (lines: readonly string[]) =>
  (lines.length === 1 ? `Removed from Terraform and left as it is on the server: ${lines[0]}` : `Removed from Terraform and left as they are on the server: ${lines.join('; ')}`);

/**
 * What a destroy leaves in place, said once and only once it was left. The plan notes each removal
 * that will leave its settings (no request); the apply's removal that completes that list says one
 * warning naming them all. A removal that fails stops the list from completing: it says what was
 * left so far, and each removal after it says its own. Without the plan's notes (a saved plan
 * applied by another terraform), the first removal says its line and speaks for the others, which
 * go to the provider's log.
 */
export interface LeftInPlace {
  /** The plan removes a resource and leaves this in place. */
  planned(line: string): void;
  /** A removal left this in place: the warning to say now, if any. */
  left(line: string): string | undefined;
  /** A removal failed: the warning naming what was left so far and not said yet, if any. */
  removalFailed(): string | undefined;
}

export function leftInPlace(notes: RunNotes, account: string, maxAgeMs: number, log: (line: string) => void): LeftInPlace {
  const plannedHere: string[] = [];
  const left: string[] = [];
  const said = new Set<string>();
  let stopped = false;
  let unplannedSaid = false;
  const plannedByRun = () => linesOf(notes.get(account, LEFT_IN_PLACE, maxAgeMs));
  const unsaid = (): string | undefined => {
    const lines = left.filter((line) => !said.has(line) && plannedByRun().includes(line));
    lines.forEach((line) => said.add(line));
    return lines.length ? removedAndLeft(lines) : undefined;
  };
  return {
    planned(line) {
      plannedHere.push(line);
      notes.put(account, LEFT_IN_PLACE, [...plannedHere]);
    },
    left(line) {
      left.push(line);
      const planned = plannedByRun();
      if (planned.includes(line)) {
        if (stopped || planned.every((l) => left.includes(l))) return unsaid();
        log(`removed from Terraform, left as it is: ${line} (said with the rest of the plan's removals)`);
        return undefined;
      }
      if (unplannedSaid) {
        log(`removed from Terraform, left as it is: ${line}`);
        return undefined;
      }
      unplannedSaid = true;
      return `${removedAndLeft([line])}. Every resource removed later in this run is left as it is too; each one's line is in the provider's log (TF_LOG=INFO)`;
    },
    removalFailed() {
      stopped = true;
      return unsaid();
    },
  };
}
