import { HostingApiClient } from '../../src/api';
import type { RunNotes } from '../../src/provider/run-notes';
import { createSession } from '../../src/provider/session';

/**
 * Which refresh read an apply may write from without reading again: one made by the same terraform
 * run for the same account, whatever its age (a rate-limited apply past a minute reads nothing
 * twice); never another run's (a saved plan applied later, even at once), nor another account's.
 */
describe('trusted reads', () => {
  const clients: HostingApiClient[] = [];
  afterAll(async () => Promise.all(clients.map((c) => c.close())));
  const notes = (run: string | undefined): RunNotes => ({ run, get: () => undefined, put: () => undefined, flush: () => undefined });
  const session = (run: string | undefined, token = 'hsim_token_a', planReadMaxAgeSeconds?: number) => {
    const client = new HostingApiClient({ baseUrl: 'http://127.0.0.1:9/api/v1', token });
    clients.push(client);
    return createSession({ client, tokenEnvVar: 'HOSTING_API_TOKEN', log: () => undefined, now: () => 0, notes: notes(run), planReadMaxAgeSeconds }, new AbortController().signal).forCall('plan');
  };

  test('the same run and account trust the read, however old; another run, another account or no run do not', () => {
    const read = session('run-1').markRead({});
    const hourLater = { ...read, readAt: read.readAt! - 3_600_000 };
    expect(session('run-1').trustsRead(hourLater)).toBe(true);
    expect(session('run-2').trustsRead(read)).toBe(false);
    expect(session('run-1', 'hsim_token_b').trustsRead(read)).toBe(false);
    expect(session(undefined).trustsRead(session(undefined).markRead({}))).toBe(false);
  });

  test('plan_read_max_age_seconds bounds the age within the run; 0 reads at every apply', () => {
    const read = session('run-1').markRead({});
    expect(session('run-1', 'hsim_token_a', 60).trustsRead(read)).toBe(true);
    expect(session('run-1', 'hsim_token_a', 60).trustsRead({ ...read, readAt: read.readAt! - 61_000 })).toBe(false);
    expect(session('run-1', 'hsim_token_a', 0).trustsRead({ ...read, readAt: read.readAt! - 1 })).toBe(false);
  });
});
