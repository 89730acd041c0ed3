import { firewall, ipSettings, power, reboots, useTwoAccounts } from '../helpers/two-accounts';

/*
 * The protocol driver's walks taking their resources at once, as Terraform's -parallelism does
 * (the models draw it): the resources' RPCs overlap, the same picks replay the same requests, and
 * an apply of a stop, a firewall change and an address's settings together does what its plan said.
 */
const t = useTwoAccounts();

const CONFIGS = {
  pw: power({ state: 'stopped' }),
  fw: firewall('a', { enabled: false, rulesets: [4] }),
  ip: ipSettings({ rdns: 'mail.example.com' }),
};

async function applyInterleaved(picks: readonly number[]) {
  await t.reset();
  t.driver.interleaving = picks;
  const outcome = await t.driver.apply(CONFIGS);
  return { outcome, endpoints: t.a.requests.map((r) => r.endpoint), rpcs: [...t.driver.requests] };
}

test('the walks overlap their resources, and the same picks replay the same requests', async () => {
  const first = await applyInterleaved([1, 2, 0]);
  const again = await applyInterleaved([1, 2, 0]);
  const other = await applyInterleaved([0]);
  expect(again.endpoints).toEqual(first.endpoints);
  expect(other.endpoints).not.toEqual(first.endpoints);
  // Each request is the RPC's that sent it (a process's test of its token is no RPC's); taken one
  // after another, each RPC's requests would stand together in the account's log.
  const byRpc = first.rpcs.flatMap((r) => r.answers.map((a) => a.endpoint));
  const sentByRpcs = first.endpoints.filter((e) => e !== 'GET /connect');
  expect([...byRpc].sort()).toEqual([...sentByRpcs].sort());
  expect(byRpc).not.toEqual(sentByRpcs);
});

test.each([[[0]], [[1]], [[2, 1, 0]], [[1, 0, 2, 2, 1]]])('a stop, a firewall change and settings applied at once (picks %j) do what the plan said', async (picks) => {
  const { outcome } = await applyInterleaved(picks);
  expect(outcome.errors).toEqual([]);
  expect(t.a.state.server(CONFIGS.pw.config.server_id as string).server.power).toBe('stopped');
  expect(reboots(t.a)).toBe(0);
  const next = await t.driver.apply(CONFIGS);
  expect({ changes: next.changes, errors: next.errors }).toEqual({ changes: {}, errors: [] });
});
