import type { ApiResponse } from '../../src/api/client';
import { confirmWrite, MAX_EARLIER_ANSWERS, MAX_WRITE_ATTEMPTS, type ReconcileContext } from '../../src/reconcile';

/*
 * How many writes confirmWrite sends, with plain answers: an earlier run's answer (replayed on a
 * key's first send) is walked past and is no try of this run; this run's own outdated answers are.
 */
const ctx = { log: () => undefined } as unknown as ReconcileContext;

/** A step whose server never shows the value, answered as `answer(attempt)` says; returns the attempts it was written with. */
async function writesUntilRefused(answer: (attempt: number) => Pick<ApiResponse<boolean>, 'replayed' | 'attempt'>): Promise<{ attempts: number[]; error: string }> {
  const attempts: number[] = [];
  const error = await confirmWrite(ctx, {
    label: 'firewall vps_a_1',
    write: async (attempt) => {
      attempts.push(attempt);
      return { data: false, ...answer(attempt) };
    },
    read: async () => false,
    pending: (value) => (value ? [] : ['enabled false -> true']),
    explain: async (err) => {
      throw err;
    },
  }).then(() => 'confirmed', (err: Error) => err.message);
  return { attempts, error };
}

test('the answers of earlier runs are walked past, then this run tries as often as ever', async () => {
  const { attempts, error } = await writesUntilRefused((attempt) => ({ replayed: true, attempt: attempt <= 5 ? 1 : 2 }));
  // Five earlier answers, then this run's own three, each an outdated replay of its own retry.
  expect(attempts).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(error).toBe('firewall vps_a_1: not confirmed after 8 writes with unknown or outdated outcomes');
});

test('an API that replays every key, even those never sent, is written at most a bounded number of times', async () => {
  const { attempts } = await writesUntilRefused(() => ({ replayed: true, attempt: 1 }));
  expect(attempts).toHaveLength(MAX_EARLIER_ANSWERS + 1);
});

test('this run\'s own outdated answers count: no more than MAX_WRITE_ATTEMPTS', async () => {
  const { attempts } = await writesUntilRefused(() => ({ replayed: true, attempt: 2 }));
  expect(attempts).toHaveLength(MAX_WRITE_ATTEMPTS);
});
