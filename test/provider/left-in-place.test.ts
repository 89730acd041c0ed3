import { leftInPlace } from '../../src/provider/run/left-in-place';
import { NO_NOTES, type RunNotes } from '../../src/provider/run-notes';

/** Run notes that one plan and its apply share, in memory. */
const sharedNotes = (): RunNotes => {
  const kept = new Map<string, unknown>();
  return { ...NO_NOTES, get: (account, key) => kept.get(`${account} ${key}`), put: (account, key, value) => void kept.set(`${account} ${key}`, value) };
};
const FW = 'the firewall of vps_web_1 (enabled true, rule sets [1])';
const IP = 'the settings of 203.0.113.10 on ded_x';
const PW = 'vps_web_2, which stays running';

/** The plan notes what its removals leave; the apply (another process of the run) reports each. */
function destroyOf(lines: readonly string[]) {
  const notes = sharedNotes();
  const log: string[] = [];
  const plan = leftInPlace(notes, 'acct', Infinity, () => undefined);
  lines.forEach((line) => plan.planned(line));
  return { apply: leftInPlace(notes, 'acct', Infinity, (line) => log.push(line)), log };
}

describe('what a destroy leaves in place is said once, naming only what was left', () => {
  test('every removal left: the last says them all, the others only log', () => {
    const { apply, log } = destroyOf([FW, IP, PW]);
    expect([apply.left(PW), apply.left(FW)]).toEqual([undefined, undefined]);
    expect(apply.left(IP)).toBe(`Removed from Terraform and left as they are on the server: ${PW}; ${FW}; ${IP}`);
    expect(log).toHaveLength(2);
  });

  test('a removal fails: it says what was left so far, never what the plan meant to leave; a later one says its own', () => {
    const { apply } = destroyOf([FW, IP, PW]);
    expect(apply.left(PW)).toBeUndefined();
    expect(apply.removalFailed()).toBe(`Removed from Terraform and left as it is on the server: ${PW}`);
    expect(apply.left(IP)).toBe(`Removed from Terraform and left as it is on the server: ${IP}`);
    expect(apply.removalFailed()).toBeUndefined();
  });

  test('without the plan\'s notes (a saved plan applied by another run): the first speaks for the rest, which go to the log', () => {
    const apply = leftInPlace(sharedNotes(), 'acct', Infinity, () => undefined);
    expect(apply.left(FW)).toBe(`Removed from Terraform and left as it is on the server: ${FW}. Every resource removed later in this run is left as it is too; each one's line is in the provider's log (TF_LOG=INFO)`);
    expect(apply.left(IP)).toBeUndefined();
  });
});
